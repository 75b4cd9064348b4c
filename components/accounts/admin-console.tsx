"use client";
// The admin page (accounts mode): the users (disable, enable, make or remove admin), an invitation link for someone
// new, and the shared workspaces. Nothing here shows anyone's conversations.
import Link from "next/link";
import { UserMenu } from "./user-menu";
import { AdminInvite } from "./admin-invite";
import { AdminSharedWorkspaces } from "./admin-shared-workspaces";
import { AdminUsers } from "./admin-users";

export function AdminConsole({ selfId }: { selfId: string }) {
  return (
    <div className="min-h-dvh">
      <header className="flex h-14 items-center gap-3 border-b border-border px-4">
        <h1 className="flex-1 text-sm font-semibold">Hintline · Admin</h1>
        <Link href="/" data-testid="admin-back" className="text-sm text-accent underline">
          Back to the chat
        </Link>
        <UserMenu />
      </header>
      <main data-testid="admin-page" className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-6">
        <AdminUsers selfId={selfId} />
        <AdminInvite />
        <AdminSharedWorkspaces />
      </main>
    </div>
  );
}
