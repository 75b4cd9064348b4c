// A conversation's view of its workspace. Its system prompt holds the workspace as frozen when the conversation first
// replied (or at its last compression), so the prompt stays byte-identical and cached while the workspace changes;
// before each model call one small query says whether the workspace changed since the agent last heard, and if so the
// step carries a "Workspace" hint with what changed (lib/agent/workspace-changes.ts). The operator's skills folder is
// part of what every conversation sees: its revision follows the database's (`withOperatorSkills`).
import { generateId } from "ai";
import type { WorkspaceSnapshot } from "../agent/system-prompt/workspace.ts";
import {
  describeChange,
  diffWorkspace,
  KNOWLEDGE_INDEX_PATH,
  parseWorkspaceState,
  snapshotOf,
  type WorkspaceChange,
  type WorkspaceState,
} from "../agent/workspace-changes.ts";
import { laterRevision } from "../agent/hints/told.ts";
import { getKnowledgeFile, listKnowledge } from "../db/knowledge.ts";
import { listMemory } from "../db/memory.ts";
import {
  getWorkspaceView,
  putWorkspaceView,
  setWorkspaceSeen,
  workspaceViewStatus,
  type WorkspaceViewStatus,
} from "../db/workspace-views.ts";
import { approximateBytes, sharedBoundedMap } from "../bounded-map.ts";
import { getWorkspace } from "../db/workspaces.ts";
import { subagentsEnabled } from "../agent/tool-catalog.ts";
import { agentsVisibleIn } from "./agents.ts";
import { workspaceKeepsFacts } from "./compression-memory.ts";
import { operatorSkillsRevision } from "./operator-skills.ts";
import { type DefinitionScope, visibleSkills } from "./skills.ts";

// The newest state read per workspace and owner (skills and agents also come from the owner's levels), under the
// revision read before it: a conversation started in a workspace that did not change since costs no read of it. The
// revision comes from the database, so this stays exact when another instance changes the workspace.
// Bounded by workspaces and by bytes (memory and the knowledge index are long texts), one cache for the process.
const liveByWorkspace = sharedBoundedMap<string, { revision: string; state: WorkspaceState }>("live-workspaces", {
  maxEntries: 200,
  maxBytes: 16 * 1024 * 1024,
  sizeOf: (_id, live) => approximateBytes(live.state),
});

/**
 * A status read from the database with the operator's skills folder's revision after the workspace's
 * ("3:1+5f2c…"; lib/agent/hints/told.ts reads both): a change in the folder is a new revision, told as a change to
 * the workspace's own skills is. Unchanged without HINTLINE_SKILLS_DIR.
 */
function withOperatorSkills<T extends WorkspaceViewStatus | null | undefined>(status: T): T {
  const operator = status ? operatorSkillsRevision() : undefined;
  return status && operator ? { ...status, revision: `${status.revision}+${operator}` } : status;
}

/**
 * The workspace as a conversation of `ownerId` sees it now. The revision was read just before (the conversation's
 * status): a change landing meanwhile is seen again under the next revision, never missed.
 */
export async function liveWorkspace(
  status: Pick<WorkspaceViewStatus, "workspaceId" | "ownerId" | "revision">,
): Promise<{ revision: string; state: WorkspaceState }> {
  const { workspaceId, revision } = status;
  const scope: DefinitionScope = { workspaceId, ownerId: status.ownerId };
  const key = `${workspaceId}\u0000${status.ownerId ?? ""}`;
  const cached = liveByWorkspace.get(key);
  if (cached?.revision === revision) return cached;
  const [workspace, memory, files, index, skills, agents, keepsFacts] = await Promise.all([
    getWorkspace({ id: workspaceId }),
    listMemory({ workspaceId }),
    listKnowledge({ workspaceId }),
    getKnowledgeFile({ workspaceId, path: KNOWLEDGE_INDEX_PATH }),
    visibleSkills(scope),
    agentsVisibleIn(scope),
    workspaceKeepsFacts({ workspaceId, ownerId: status.ownerId }),
  ]);
  const state: WorkspaceState = {
    name: workspace?.name ?? workspaceId,
    instructions: workspace?.instructions ?? "",
    memory: memory.map((m) => ({
      id: m.id,
      text: m.text,
      ...(m.conversationId ? { conversationId: m.conversationId } : {}),
      ...(m.author === "system" ? { fromCompression: true as const } : {}),
      ...(m.author === "system" && m.source ? { source: m.source } : {}),
    })),
    knowledgeIndex: index?.content ?? "",
    files: files.map((f) => ({ path: f.path, bytes: f.bytes, updatedAt: f.updatedAt })),
    skills: skills.map((s) => ({ name: s.name, description: s.description })),
    // Subagents off (HINTLINE_MAX_AGENT_DEPTH=0): no agent is listed, so the prompt has no Subagents section.
    agents: subagentsEnabled() ? agents.map((a) => ({ id: a.id, description: a.description })) : [],
    keepsFacts,
  };
  liveByWorkspace.set(key, { revision, state });
  return { revision, state };
}

/** `revision`: the workspace revision it was frozen at (unknown for a copy stored before revisions were kept). */
export type FrozenWorkspace = { id: string; state: WorkspaceState; snapshot: WorkspaceSnapshot; revision?: string };

// Frozen states by their id: a step's prompt is assembled from the frozen state without reading it again.
const frozenById = sharedBoundedMap<string, FrozenWorkspace>("frozen-workspaces", {
  maxEntries: 200,
  maxBytes: 16 * 1024 * 1024,
  sizeOf: (_id, frozen) => approximateBytes(frozen.state) + approximateBytes(frozen.snapshot),
});
function remember(frozen: FrozenWorkspace): FrozenWorkspace {
  frozenById.set(frozen.id, frozen);
  return frozen;
}
const frozenOf = (id: string, state: WorkspaceState, revision?: string): FrozenWorkspace =>
  remember({ id, state, snapshot: snapshotOf(state), ...(revision ? { revision } : {}) });

/** The revision a stored frozen copy was taken at (kept beside the state in its JSON). */
const frozenRevisionOf = (frozen: unknown): string | undefined => {
  const revision = (frozen as { revision?: unknown } | null)?.revision;
  return typeof revision === "string" ? revision : undefined;
};

/** The workspace as it is now, frozen for the conversation's view, and how to store it there. */
async function freeze(conversationId: string, status: WorkspaceViewStatus) {
  const { revision, state } = await liveWorkspace(status);
  const frozen = frozenOf(generateId(), state, revision);
  const store = () =>
    putWorkspaceView({
      conversationId,
      frozenId: frozen.id,
      frozen: { ...state, revision },
      seenRevision: revision,
      seen: state,
    });
  return { frozen, store };
}

/**
 * Freezes the workspace as it is now into the conversation's view (its first reply, and every compression). `status`:
 * the conversation's, read just before (read here when absent). null: no conversation.
 */
export async function refreshWorkspaceView(
  conversationId: string,
  status?: WorkspaceViewStatus,
): Promise<FrozenWorkspace | null> {
  const current = status ?? withOperatorSkills(await workspaceViewStatus({ conversationId }));
  if (!current) return null;
  const { frozen, store } = await freeze(conversationId, current);
  await store();
  return frozen;
}

async function readFrozen(conversationId: string, status: WorkspaceViewStatus): Promise<FrozenWorkspace> {
  if (!status.frozenId) return (await refreshWorkspaceView(conversationId, status))!;
  const cached = frozenById.get(status.frozenId);
  if (cached) return cached;
  const view = await getWorkspaceView({ conversationId });
  const state = parseWorkspaceState(view?.frozen);
  if (!view || !state) return (await refreshWorkspaceView(conversationId, status))!;
  return frozenOf(view.frozenId, state, frozenRevisionOf(view.frozen));
}

/**
 * The workspace as the conversation's system prompt holds it, for a view that writes nothing (GET routes): frozen, or
 * as it would be frozen now when the conversation never replied. null: no conversation.
 */
export async function promptWorkspace(conversationId: string): Promise<FrozenWorkspace | null> {
  const status = withOperatorSkills(await workspaceViewStatus({ conversationId }));
  if (!status) return null;
  if (status.frozenId) return readFrozen(conversationId, status);
  const id = `live:${status.workspaceId}:${status.ownerId ?? ""}:${status.revision}`;
  return frozenById.get(id) ?? frozenOf(id, (await liveWorkspace(status)).state);
}

/** The workspace as the conversation's system prompt holds it (frozen now if it never was); null: no conversation. */

/**
 * What the inspector shows: the changes made since the prompt's copy was frozen (they reach the agent as hints and
 * the prompt at the next compression). A conversation that never replied has nothing pending: it will freeze it now.
 */
export async function pendingWorkspaceChanges(conversationId: string): Promise<string[]> {
  const status = withOperatorSkills(await workspaceViewStatus({ conversationId }));
  if (!status?.frozenId) return [];
  const frozen = await readFrozen(conversationId, status);
  const { state } = await liveWorkspace(status);
  return diffWorkspace(frozen.state, state).map(describeChange);
}

/** What changed in the workspace since the revision the agent knows, up to `revision`, and the state now. */
export type WorkspaceNews = { name: string; revision: string; changes: WorkspaceChange[]; seen: WorkspaceState };

/**
 * The conversation's workspace for the reply's steps: the frozen copy for the system prompt, and before each step what
 * changed since the agent last heard (nothing read when the step's status shows no change). `spawns` false (a subagent
 * at the maximum depth, with no agent tools): changes to the agent definitions are none of its news.
 */
export async function openWorkspaceTracker(conversationId: string, { spawns = true }: { spawns?: boolean } = {}) {
  // Read once as the reply opens; the first step uses it again (a change landing in between waits one step).
  let opened = withOperatorSkills(await workspaceViewStatus({ conversationId }));
  let frozen: FrozenWorkspace | null = null;
  // A conversation's first reply freezes the workspace; storing it waits until the first model call is under way.
  let stored: Promise<void> | undefined;
  // The revisions last found to hold nothing to tell (what the agent knew, and the workspace's).
  let quiet: { known: string | undefined; revision: string } | undefined;
  // The workspace's revision the last step read (the MCP tool check looks again only when it moves).
  let lastRevision: string | undefined;
  if (opened?.frozenId) frozen = await readFrozen(conversationId, opened);
  else if (opened) {
    const first = await freeze(conversationId, opened);
    frozen = first.frozen;
    opened = { ...opened, frozenId: frozen.id, seenRevision: opened.revision };
    stored = new Promise<void>((resolve) => setImmediate(resolve)).then(first.store);
    stored.catch(() => {}); // reported where it is awaited (a later step, the reply's end)
  }
  return {
    /** The workspace's revision as the last step read it (undefined before the first step). */
    revision: () => lastRevision,
    /** Resolves when the frozen copy is stored (throws what storing it threw). */
    stored: () => stored,
    /** The frozen copy the system prompt is assembled from (undefined: the conversation is gone). */
    frozen: () => frozen ?? undefined,
    /** After a compression: the prompt's copy becomes the workspace as it is now (and the agent has heard it all). */
    async refresh(): Promise<void> {
      await stored;
      opened = null;
      frozen = (await refreshWorkspaceView(conversationId)) ?? frozen;
    },
    /**
     * Before a step (after any compression): the frozen copy brought up to date, and what changed, if anything. `told`:
     * the revision the newest Workspace hint in the step's input told (none: only the prompt's frozen copy). A hint
     * whose reply is gone (regenerated, edited away, another branch) is not in the input, so its changes are told again.
     * `read`: the status the step read (the reply's first step uses the one read as it opened).
     */
    async beforeStep(told: string | undefined, read?: WorkspaceViewStatus | null): Promise<WorkspaceNews | undefined> {
      if (!opened) await stored;
      const status =
        opened ?? withOperatorSkills(read === undefined ? await workspaceViewStatus({ conversationId }) : read);
      opened = null;
      if (!status) return undefined;
      lastRevision = status.revision;
      if (status.frozenId !== frozen?.id) frozen = await readFrozen(conversationId, status);
      // What the agent knows: the later of the prompt's copy and the newest hint (a hint kept in the tail across a
      // compression is older than the copy the compression froze).
      const known = laterRevision(frozen.revision ?? status.seenRevision ?? undefined, told);
      if (known === status.revision) return undefined;
      if (quiet && quiet.known === known && quiet.revision === status.revision) return undefined;
      const [view, live] = await Promise.all([getWorkspaceView({ conversationId }), liveWorkspace(status)]);
      // The changes since the state the agent knows: the last one told when that is what the input holds, else the
      // prompt's copy (all changes since it, some perhaps told again by an older hint still in the input).
      const seen = known === view?.seenRevision ? parseWorkspaceState(view?.seen) : null;
      const changes = diffWorkspace(seen ?? frozen.state, live.state, conversationId).filter(
        (change) => spawns || !change.kind.startsWith("agent-"),
      );
      if (changes.length === 0) {
        // Nothing to tell (the agent's own memory entry): not looked at again until the workspace changes.
        quiet = { known, revision: live.revision };
        return undefined;
      }
      return { name: live.state.name, revision: live.revision, changes, seen: live.state };
    },
    /** The news was told (in a hint the step appended): the agent has heard the workspace up to its revision. */
    told(news: WorkspaceNews): Promise<void> {
      return setWorkspaceSeen({ conversationId, seenRevision: news.revision, seen: news.seen });
    },
  };
}

export type WorkspaceTracker = Awaited<ReturnType<typeof openWorkspaceTracker>>;
