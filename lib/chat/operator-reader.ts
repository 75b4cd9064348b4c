// Who reads the operator's words in a failure (lib/operator-words.ts): in open and token mode the one person, who
// runs the server; in accounts mode an admin. A conversation's errors are read by its owner.
import { authMode } from "../auth/mode.ts";
import { findUser } from "../db/accounts.ts";

/** Whether the owner of a conversation (null: open or token mode's person) reads the operator's words. */
export async function readsOperatorWords(ownerId: string | null): Promise<boolean> {
  if (authMode() !== "accounts") return true;
  if (!ownerId) return false;
  return (await findUser({ id: ownerId }).catch(() => null))?.admin === true;
}
