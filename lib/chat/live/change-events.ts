// Which change events a successful write through the HTTP API causes, from its method and path. Replies publish
// their own (live-reply.ts): the message appended, the task list changed by the agent, the reply settled.
import { type ChangeEvent, publishChange } from "./event-bus.ts";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function changesOf(method: string, pathname: string): ChangeEvent[] {
  if (!WRITES.has(method)) return [];
  const parts = pathname
    .split("/")
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  if (parts[0] !== "api") return [];
  if (parts[1] === "workspaces") return [{ type: "workspace", id: parts[2] ?? "" }];
  if (parts[1] !== "conversations") return [];
  const id = parts[2];
  if (id === undefined) return [];
  if (id === "import" && parts.length === 3) return [{ type: "conversations", id: "" }];
  if (id === "export" && parts.length === 3) return [];
  const sub = parts[3];
  if (sub === undefined)
    return [
      { type: "conversation", id },
      { type: "conversations", id },
    ];
  if (sub === "tasks") return [{ type: "tasks", id }];
  if (sub === "compact" || sub === "compression" || sub === "approvals" || sub === "queue")
    return [{ type: "conversation", id }];
  if (sub === "branches")
    return [
      { type: "conversation", id },
      { type: "conversations", id },
    ];
  return [];
}

/**
 * A write's events; a user's conversation events carry their id (the conversation may be gone: a delete). A workspace
 * event names the workspace the route resolved (`workspaceId`): a path's "default" is each person's own, so the id in
 * the path would reach the owner of the workspace whose id is "default" instead.
 */
export function publishChangesOf(
  request: Request,
  response: Response,
  { owner, workspaceId }: { owner?: string; workspaceId?: string } = {},
): void {
  if (!response.ok || !WRITES.has(request.method)) return;
  for (const event of changesOf(request.method, new URL(request.url).pathname)) {
    if (event.type === "workspace")
      publishChange(workspaceId !== undefined && event.id !== "" ? { ...event, id: workspaceId } : event);
    else publishChange(owner !== undefined ? { ...event, owner } : event);
  }
}
