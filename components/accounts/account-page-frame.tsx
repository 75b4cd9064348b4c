"use client";
// The frame of accounts mode's own pages (/admin, /me): a header with the title, the way back to the chat and the user
// menu, above the page's sections.
import Link from "next/link";
import type { ReactNode } from "react";
import { UserMenu } from "./user-menu";

export function AccountPageFrame({
  title,
  testId,
  width,
  children,
}: {
  title: string;
  testId: string;
  width: "3xl" | "4xl";
  children: ReactNode;
}) {
  return (
    <div className="min-h-dvh">
      <header className="flex h-14 items-center gap-3 border-b border-border px-4">
        <h1 className="flex-1 text-sm font-semibold">Hintline · {title}</h1>
        <Link href="/" data-testid={`${testId.replace(/-page$/, "")}-back`} className="text-sm text-accent underline">
          Back to the chat
        </Link>
        <UserMenu />
      </header>
      <main
        data-testid={testId}
        className={`mx-auto flex ${width === "3xl" ? "max-w-3xl" : "max-w-4xl"} flex-col gap-6 px-4 py-6`}
      >
        {children}
      </main>
    </div>
  );
}
