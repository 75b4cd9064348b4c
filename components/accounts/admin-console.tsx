"use client";
// The admin page (accounts mode): the users (disable, enable, make or remove admin), an invitation link for someone
// new, and the shared workspaces. Nothing here shows anyone's conversations.
import { AccountPageFrame } from "./account-page-frame";
import { AdminInvite } from "./admin-invite";
import { AdminSharedWorkspaces } from "./admin-shared-workspaces";
import { AdminUsers } from "./admin-users";

export function AdminConsole({ selfId }: { selfId: string }) {
  return (
    <AccountPageFrame title="Admin" testId="admin-page" width="4xl">
      <AdminUsers selfId={selfId} />
      <AdminInvite />
      <AdminSharedWorkspaces />
    </AccountPageFrame>
  );
}
