// Whether what a conversation's agent writes may change its workspace, which everyone in it is then given (its memory
// sits in every conversation's prompt). The person behind a conversation is its owner — also behind its subagents
// (their conversations are the parent owner's) and its compressions — who may change a workspace as its routes let
// them: their own, or any as an admin; a member using a shared workspace may not (its routes answer 403).
import { mayEditWorkspace } from "../auth/scope.ts";
import { authMode } from "../auth/mode.ts";
import { findUser } from "../db/accounts.ts";
import { workspaceOwnership } from "../db/ownership.ts";

/** `ownerId`: the conversation's owner (null in open and token mode, where the one person may change everything). */
export async function ownerMayEditWorkspace({
  ownerId,
  workspaceId,
}: {
  ownerId: string | null | undefined;
  workspaceId: string;
}): Promise<boolean> {
  if (!ownerId || authMode() !== "accounts") return true;
  const [workspace, owner] = await Promise.all([workspaceOwnership({ id: workspaceId }), findUser({ id: ownerId })]);
  // A workspace that is gone: the write itself says so.
  if (!workspace) return true;
  if (!owner || owner.disabled) return false;
  return mayEditWorkspace(
    { kind: "user", userId: owner.id, email: owner.email, name: owner.name, admin: owner.admin },
    workspace.ownerId,
  );
}
