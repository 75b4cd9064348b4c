"use client";
// Accounts mode's user menu in the header: who is signed in, their own skills, the admin page for admins, signing out. Nothing in
// open and token mode (GET /api/me answers user: null there).
import * as Menu from "@radix-ui/react-dropdown-menu";
import { useEffect, useState } from "react";
import type { Me } from "@/lib/chat/account-pages";
import { apiFetch } from "@/lib/stores/api-client";
import { warnFailure } from "@/lib/client-log";

const item =
  "flex cursor-default items-center gap-2 rounded-md px-2.5 py-1.5 text-sm outline-none data-[highlighted]:bg-chip";

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase());
  return letters.join("") || "?";
}

export async function signOut(): Promise<void> {
  await fetch("/api/auth/sign-out", { method: "POST" }).catch(() => undefined);
  window.location.assign("/sign-in");
}

export function UserMenu() {
  const [user, setUser] = useState<Me["user"]>(null);
  useEffect(() => {
    if (document.documentElement.dataset.authMode !== "accounts") return;
    void apiFetch<Me>("/api/me")
      .then((me) => setUser(me.user))
      .catch(warnFailure("asking who is signed in failed"));
  }, []);
  if (!user) return null;
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger
        data-testid="user-menu"
        aria-label={`Account: ${user.name}`}
        title={`${user.name} (${user.email})`}
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-chip text-xs font-semibold text-fg hover:ring-2 hover:ring-border"
      >
        {initials(user.name)}
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-56 max-w-[min(20rem,calc(100vw-1rem))] rounded-xl border border-border bg-elevated p-1 shadow-xl"
        >
          <Menu.Label className="px-2.5 py-1.5 text-sm">
            <span data-testid="user-menu-name" title={user.name} className="block truncate font-medium">
              {user.name}
            </span>
            <span data-testid="user-menu-email" title={user.email} className="block truncate text-xs text-muted">
              {user.email}
              {user.admin ? " · admin" : ""}
            </span>
          </Menu.Label>
          <Menu.Separator className="my-1 h-px bg-border" />
          <Menu.Item asChild className={item}>
            <a href="/me" data-testid="user-menu-own-skills">
              Your skills
            </a>
          </Menu.Item>
          {user.admin && (
            <Menu.Item asChild className={item}>
              <a href="/admin" data-testid="user-menu-admin">
                Admin
              </a>
            </Menu.Item>
          )}
          <Menu.Item onSelect={() => void signOut()} data-testid="user-menu-sign-out" className={item}>
            Sign out
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
