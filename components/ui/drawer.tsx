"use client";
// A side drawer as a modal dialog (Radix): role="dialog" + aria-modal, focus moves in and stays in, Esc and a click
// on the backdrop close it, and focus returns to whatever opened it.
import * as Dialog from "@radix-ui/react-dialog";
import { type ReactNode, useRef } from "react";

/**
 * Radix returns focus to a Dialog.Trigger; Hintline's dialogs are opened by plain buttons (some after a fetch) or by
 * a shortcut, so the element that had focus when the dialog opened gets it back. Spread on Dialog.Content.
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      if (!opener.current?.isConnected) return;
      event.preventDefault();
      opener.current.focus();
    },
  };
}

export function Drawer({
  open,
  onOpenChange,
  title,
  side = "right",
  className = "",
  testId,
  backdropTestId,
  hideTitle = false,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog's accessible name (shown unless hideTitle; then it is read by screen readers only). */
  title: string;
  side?: "left" | "right";
  className?: string;
  testId?: string;
  backdropTestId?: string;
  hideTitle?: boolean;
  children: ReactNode;
}) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay data-testid={backdropTestId} className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          data-testid={testId}
          aria-describedby={undefined}
          // Radix hides the rest of the page from assistive technology; aria-modal says so explicitly.
          aria-modal="true"
          {...returnFocus}
          className={`fixed inset-y-0 z-50 flex flex-col shadow-2xl outline-none ${side === "left" ? "left-0" : "right-0"} ${className}`}
        >
          {hideTitle && <Dialog.Title className="sr-only">{title}</Dialog.Title>}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The visible heading that names a Drawer (use inside it when hideTitle is false). */
export const DrawerTitle = Dialog.Title;
/** A button that closes the Drawer it is in. */
export const DrawerClose = Dialog.Close;
