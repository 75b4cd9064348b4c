// Which change events reach a signed-in user's GET /api/events (accounts mode): those of their own conversations and
// of the workspaces they may use. An event says only its type and id; its owner is the publisher's word when given,
// else read here. A conversation's owner never changes, so it is remembered (bounded); a workspace's sharing can, so
// it is read each time (workspace events are rare: a person's edits).
import type { Viewer } from "../../auth/viewer.ts";
import { BoundedMap } from "../../bounded-map.ts";
import { conversationOwner, workspaceOwnership } from "../../db/ownership.ts";
import type { ChangeEvent } from "./event-bus.ts";

const holder = globalThis as unknown as { __hintlineConversationOwners?: BoundedMap<string, string | null> };

async function ownerOfConversation(id: string): Promise<string | null | undefined> {
  holder.__hintlineConversationOwners ??= new BoundedMap({ maxEntries: 20_000 });
  const owners = holder.__hintlineConversationOwners;
  if (owners.has(id)) return owners.get(id);
  const owner = await conversationOwner({ id });
  if (owner !== undefined) owners.set(id, owner);
  return owner;
}

/** Whether `event` may reach the viewer; undefined for the operator of open and token mode (every event does). */
export function eventAccess(viewer: Viewer): ((event: ChangeEvent) => Promise<boolean>) | undefined {
  if (viewer.kind === "operator") return undefined;
  const me = viewer.userId;
  return async (event) => {
    if (event.owner !== undefined) return event.owner === me;
    if (event.type === "workspace") {
      const workspace = await workspaceOwnership({ id: event.id });
      return workspace !== null && (workspace.ownerId === me || workspace.shared);
    }
    return event.id !== "" && (await ownerOfConversation(event.id)) === me;
  };
}
