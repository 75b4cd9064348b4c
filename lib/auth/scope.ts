// The one ownership check every route passes through (lib/http/request.ts's route() calls gateRoute before the
// handler runs): a conversation or workspace another user owns answers exactly as an unknown id does — 404, nothing
// changed — so ids do not leak. Everything a route reaches below /api/conversations/:id or /api/workspaces/:id (tasks,
// plan, approvals, children, stream, memory, knowledge, skills, agents, MCP servers) belongs to that id.
import { ApiError } from "../api/errors.ts";
import { DEFAULT_WORKSPACE_ID } from "../db/workspaces.ts";
import { conversationOwner, isUserLevelId, personalDefaultWorkspace, workspaceOwnership } from "../db/ownership.ts";
import { isAdmin, type Viewer } from "./viewer.ts";

export type WorkspaceAccess = "use" | "edit";

function unknownConversation(id: string): ApiError {
  return new ApiError("not_found", `Conversation ${id} does not exist.`);
}

function unknownWorkspace(id: string): ApiError {
  return new ApiError("not_found", `Workspace ${id} does not exist.`);
}

/**
 * Refuses a conversation another user owns. An id no one has used yet passes (POST /api/chat creates it; the other
 * routes answer their own 404), and so does every id for the operator of open and token mode. Returns whether a
 * user's conversation exists already (the operator's answer is "unknown": undefined).
 */
export async function checkConversation(viewer: Viewer, id: string): Promise<boolean | undefined> {
  if (viewer.kind === "operator") return undefined;
  const owner = await conversationOwner({ id });
  if (owner !== undefined && owner !== viewer.userId) throw unknownConversation(id);
  return owner !== undefined;
}

/** The same refusal, for a conversation already read (e.g. after a create that may have raced another user's). */
export function checkOwnerOf(viewer: Viewer, conversation: { id: string; ownerId: string | null }): void {
  if (viewer.kind === "user" && conversation.ownerId !== viewer.userId) throw unknownConversation(conversation.id);
}

/** The viewer's own default workspace: "default" for the operator, a private one per user in accounts mode. */
export async function defaultWorkspaceOf(viewer: Viewer): Promise<string> {
  return viewer.kind === "operator" ? DEFAULT_WORKSPACE_ID : personalDefaultWorkspace({ userId: viewer.userId });
}

/** Whether the viewer may change a workspace they can see (owned by `ownerId`): its owner and the admins may. */
export function mayEditWorkspace(viewer: Viewer, ownerId: string | null): boolean {
  return viewer.kind === "operator" || ownerId === viewer.userId || isAdmin(viewer);
}

/**
 * The workspace id a route names, resolved ("default" is the viewer's own) and checked: a private workspace only for
 * its owner; a shared one for everyone to use, and to edit for its owner and the admins.
 */
export async function resolveWorkspace(viewer: Viewer, id: string, access: WorkspaceAccess): Promise<string> {
  // A user's own level is reached only through /api/me/skills and /api/me/agents: as a workspace it does not exist.
  if (isUserLevelId(id)) throw unknownWorkspace(id);
  if (viewer.kind === "operator") return id;
  if (id === DEFAULT_WORKSPACE_ID) return defaultWorkspaceOf(viewer);
  const found = await workspaceOwnership({ id });
  if (!found) throw unknownWorkspace(id);
  const own = found.ownerId === viewer.userId;
  if (!own && !found.shared) throw unknownWorkspace(id);
  if (access === "edit" && !mayEditWorkspace(viewer, found.ownerId)) {
    throw new ApiError(
      "forbidden",
      `Workspace ${id} is shared with you to use; only its owner or an admin can change it.`,
    );
  }
  return id;
}

const CONVERSATION_PATH = /^\/api\/conversations\/(?!export$|import$)[^/]+/;
const WORKSPACE_PATH = /^\/api\/workspaces\/[^/]+/;
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Checks the `id` a route's path names before its handler runs, and gives the handler the resolved id. Routes under
 * /api/conversations/:id check the conversation; routes under /api/workspaces/:id the workspace (reads need "use",
 * writes "edit").
 */
export async function gateRoute<P>(viewer: Viewer, request: Request, params: P): Promise<P> {
  const id = (params as { id?: unknown } | null)?.id;
  if (typeof id !== "string") return params;
  const path = new URL(request.url).pathname;
  if (CONVERSATION_PATH.test(path)) {
    await checkConversation(viewer, id);
    return params;
  }
  if (WORKSPACE_PATH.test(path)) {
    const access: WorkspaceAccess = READS.has(request.method) ? "use" : "edit";
    return { ...params, id: await resolveWorkspace(viewer, id, access) };
  }
  return params;
}
