"use client";
// The keyboard shortcuts, listed in a dialog (Radix: modal, Esc closes, focus returns to what opened it).
import * as Dialog from "@radix-ui/react-dialog";
import { useReturnFocus } from "../ui/drawer";
import { SHORTCUTS } from "./shortcuts";

export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          data-testid="shortcuts-dialog"
          aria-modal="true"
          aria-describedby={undefined}
          {...returnFocus}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-border bg-elevated p-5 shadow-2xl outline-none"
        >
          <div className="mb-3 flex items-center justify-between">
            <Dialog.Title className="font-semibold">Keyboard shortcuts</Dialog.Title>
            <Dialog.Close className="rounded-md px-2 py-1 text-sm text-muted hover:bg-chip">Close</Dialog.Close>
          </div>
          <table className="w-full text-sm">
            <tbody>
              {SHORTCUTS.map((s) => (
                <tr key={s.description} data-testid="shortcut" className="border-t border-border">
                  <td className="py-1.5 pr-3 whitespace-nowrap">
                    {s.keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 && <span className="px-0.5 text-muted">+</span>}
                        <kbd className="rounded border border-border bg-chip px-1.5 py-0.5 font-mono text-xs">{k}</kbd>
                      </span>
                    ))}
                  </td>
                  <td className="py-1.5">{s.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
