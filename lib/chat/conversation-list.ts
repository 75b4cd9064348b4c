// A conversation's removal, and its view when it may not exist yet: what routes and pages ask of conversations besides
// a turn and the list (lib/chat/workspaces.ts), reaching the database only through lib/chat.
import { ApiError } from "../api/errors.ts";
import { deleteConversation, getConversation } from "../db/conversations.ts";
import { descendantIds, forgetChildren } from "../db/subagents.ts";
import { forgetCalls } from "./cache-accounting.ts";
import { holdConversation } from "./live/hold-conversation.ts";
import { type ConversationView, getConversationView } from "./conversation-view.ts";

const missing = (id: string) => new ApiError("not_found", `Conversation ${id} does not exist.`);

/**
 * Deletes the conversation once its live reply (on any instance) has stopped and is stored, holding the reply lock
 * meanwhile: nothing of the reply is written afterwards, and no new one starts (nor re-creates it) in between. Its
 * subagents' conversations (and theirs) go with it, each stopped and held the same way first.
 */
export async function removeConversation(id: string): Promise<void> {
  if (!(await getConversation({ id }))) throw missing(id);
  const releases = [await holdConversation(id, "delete")];
  let descendants: string[] = [];
  try {
    descendants = await descendantIds({ id });
    for (const child of descendants) releases.push(await holdConversation(child, "delete"));
    if (!(await deleteConversation({ id }))) throw missing(id);
  } finally {
    for (const release of releases.reverse()) await release().catch(() => {});
  }
  forgetChildren(descendants);
  // A new conversation may take the id: its first call is not a break of this one's cache.
  for (const gone of [id, ...descendants]) forgetCalls(gone);
}

/** The view of a stored conversation, or null for one that does not exist yet (a new chat's page). */
export async function findConversationView(id: string): Promise<ConversationView | null> {
  return (await getConversation({ id })) ? getConversationView(id) : null;
}
