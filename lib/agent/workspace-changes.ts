// What a running conversation is told when its workspace changes. Its system prompt keeps the workspace as it was
// frozen (byte-identical, so the provider's cache holds); the agent instead gets one "Workspace" hint that says what
// changed since it last heard, carrying the new content within a hint's bounded size. The prompt takes the changes in
// at the next compression. Pure: states in, changes and texts out.
import type { HintSource } from "../chat-message.ts";
import { FACT_SOURCES, type FactSource } from "./compression-memory.ts";
import { bulletReminder } from "./hints/render-hint.ts";
import { escapeWorkspaceText, FACTS_KEPT, oneLine, type WorkspaceSnapshot } from "./system-prompt/workspace.ts";

export const WORKSPACE_HINT_SOURCE: HintSource = { label: "System", sublabel: "Workspace" };
export const KNOWLEDGE_INDEX_PATH = "KNOWLEDGE.md";

/** A workspace as a conversation holds it: enough to assemble the prompt's section and to tell what changed. */
export type WorkspaceState = {
  name: string;
  instructions: string;
  /**
   * `fromCompression`: a durable fact the system kept from `conversationId` (at a compression or its end; the name is
   * what states stored before ends were); `source`: whose words it came from (lib/agent/compression-memory.ts).
   */
  memory: ReadonlyArray<{
    id: string;
    text: string;
    conversationId?: string;
    fromCompression?: true;
    source?: FactSource;
  }>;
  /** KNOWLEDGE.md's text (empty when there is none). */
  knowledgeIndex: string;
  /** Every knowledge file, KNOWLEDGE.md included. */
  files: ReadonlyArray<{ path: string; bytes: number; updatedAt: string }>;
  skills: ReadonlyArray<{ name: string; description: string }>;
  /** Agents visible to its conversations; absent in a state stored before subagents (read as none). */
  agents?: ReadonlyArray<{ id: string; description: string }>;
  /**
   * Whether the system keeps durable facts from the owner's conversations here (the workspace's switch, and the owner
   * may change it); absent in a state stored before it was kept (the prompt then says nothing of it).
   */
  keepsFacts?: boolean;
};

export type WorkspaceChange =
  | { kind: "renamed"; name: string }
  | { kind: "instructions"; text: string }
  | { kind: "memory-added"; text: string; fromCompression?: true; source?: FactSource }
  | { kind: "memory-removed"; text: string }
  | { kind: "memory-edited"; before: string; text: string }
  | { kind: "knowledge-index"; text: string }
  | { kind: "file-added" | "file-replaced"; path: string; bytes: number }
  | { kind: "file-removed"; path: string }
  | { kind: "skill-added" | "skill-changed"; name: string; description: string }
  | { kind: "skill-removed"; name: string }
  | { kind: "agent-added" | "agent-changed"; id: string; description: string }
  | { kind: "agent-removed"; id: string }
  | { kind: "facts-kept"; on: boolean };

/** The part of the state the system prompt's workspace section is assembled from. */
export function snapshotOf(state: WorkspaceState): WorkspaceSnapshot {
  return {
    name: state.name,
    instructions: state.instructions,
    memory: state.memory.map((m) => m.text),
    knowledgeIndex: state.knowledgeIndex,
    files: state.files.filter((f) => f.path !== KNOWLEDGE_INDEX_PATH).map((f) => ({ path: f.path, bytes: f.bytes })),
    skills: state.skills,
    ...(state.agents ? { agents: state.agents } : {}),
    ...(state.keepsFacts !== undefined ? { keepsFacts: state.keepsFacts } : {}),
  };
}

/**
 * The changes from `before` to `after`, in the order a reader wants them. `conversationId`: memory entries this
 * conversation's own agent wrote are not news to it.
 */
export function diffWorkspace(
  before: WorkspaceState,
  after: WorkspaceState,
  conversationId?: string,
): WorkspaceChange[] {
  const changes: WorkspaceChange[] = [];
  if (before.name !== after.name) changes.push({ kind: "renamed", name: after.name });
  if (before.instructions !== after.instructions) changes.push({ kind: "instructions", text: after.instructions });
  const beforeMemory = new Map(before.memory.map((m) => [m.id, m.text]));
  const afterIds = new Set(after.memory.map((m) => m.id));
  for (const entry of after.memory) {
    const old = beforeMemory.get(entry.id);
    if (old === undefined) {
      if (!conversationId || entry.conversationId !== conversationId) {
        changes.push({
          kind: "memory-added",
          text: entry.text,
          ...(entry.fromCompression ? { fromCompression: true as const } : {}),
          ...(entry.fromCompression && entry.source ? { source: entry.source } : {}),
        });
      }
    } else if (old !== entry.text) changes.push({ kind: "memory-edited", before: old, text: entry.text });
  }
  for (const entry of before.memory)
    if (!afterIds.has(entry.id)) changes.push({ kind: "memory-removed", text: entry.text });
  const beforeFiles = new Map(before.files.map((f) => [f.path, f]));
  const afterPaths = new Set(after.files.map((f) => f.path));
  for (const file of after.files) {
    const old = beforeFiles.get(file.path);
    if (old && old.updatedAt === file.updatedAt && old.bytes === file.bytes) continue;
    if (file.path === KNOWLEDGE_INDEX_PATH) changes.push({ kind: "knowledge-index", text: after.knowledgeIndex });
    else changes.push({ kind: old ? "file-replaced" : "file-added", path: file.path, bytes: file.bytes });
  }
  for (const file of before.files) {
    if (afterPaths.has(file.path)) continue;
    changes.push(
      file.path === KNOWLEDGE_INDEX_PATH
        ? { kind: "knowledge-index", text: "" }
        : { kind: "file-removed", path: file.path },
    );
  }
  const beforeSkills = new Map(before.skills.map((s) => [s.name, s.description]));
  const afterSkills = new Set(after.skills.map((s) => s.name));
  for (const skill of after.skills) {
    const old = beforeSkills.get(skill.name);
    if (old === undefined) changes.push({ kind: "skill-added", ...skill });
    else if (old !== skill.description) changes.push({ kind: "skill-changed", ...skill });
  }
  for (const skill of before.skills)
    if (!afterSkills.has(skill.name)) changes.push({ kind: "skill-removed", name: skill.name });
  const beforeAgents = new Map((before.agents ?? []).map((a) => [a.id, a.description]));
  const afterAgents = new Set((after.agents ?? []).map((a) => a.id));
  for (const agent of after.agents ?? []) {
    const old = beforeAgents.get(agent.id);
    if (old === undefined) changes.push({ kind: "agent-added", ...agent });
    else if (old !== agent.description) changes.push({ kind: "agent-changed", ...agent });
  }
  for (const agent of before.agents ?? [])
    if (!afterAgents.has(agent.id)) changes.push({ kind: "agent-removed", id: agent.id });
  // A state stored before it was kept says nothing of it: no change is made up.
  if (before.keepsFacts !== undefined && after.keepsFacts !== undefined && before.keepsFacts !== after.keepsFacts)
    changes.push({ kind: "facts-kept", on: after.keepsFacts });
  return changes;
}

const line = (text: string) => escapeWorkspaceText(oneLine(text));

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Longest text a change carries whole (instructions, KNOWLEDGE.md) before it is cut with a note. */
export const CHANGE_TEXT_MAX_CHARS = 1_500;
const LINE_MAX_CHARS = 400;

function blockOf(text: string, whatFor: string): string {
  const safe = escapeWorkspaceText(text.trim());
  if (!safe) return "";
  if (safe.length <= CHANGE_TEXT_MAX_CHARS) return `\n${safe}`;
  return `\n${safe.slice(0, CHANGE_TEXT_MAX_CHARS)}\n[… ${safe.length - CHANGE_TEXT_MAX_CHARS} more characters; ${whatFor}]`;
}

/** Where a kept fact came from, as the hint says it. */
const FACT_ORIGIN: Record<FactSource | "unnamed", string> = {
  person: "the person's words in another conversation of this workspace",
  agent: "an agent's words in another conversation of this workspace",
  unnamed: "another conversation of this workspace",
};
const FACTS_NOT_KEPT =
  "Durable facts are no longer kept on their own: from now on this memory holds only what is written to it (MemoryWrite, the person).";

/** One change as the hint states it (one bullet, with a block of new text where it has one). */
export function describeChange(change: WorkspaceChange): string {
  switch (change.kind) {
    case "renamed":
      return `- The workspace was renamed to "${cut(line(change.name), 100)}".`;
    case "instructions":
      return change.text.trim()
        ? `- The workspace instructions changed; they now read:${blockOf(change.text, "read them whole with InstructionsRead")}`
        : "- The workspace instructions were removed.";
    case "memory-added":
      return change.fromCompression
        ? `- Memory entry added (a durable fact the system kept from ${FACT_ORIGIN[change.source ?? "unnamed"]}): ${cut(line(change.text), LINE_MAX_CHARS)}`
        : `- Memory entry added: ${cut(line(change.text), LINE_MAX_CHARS)}`;
    case "memory-removed":
      return `- Memory entry removed: ${cut(line(change.text), LINE_MAX_CHARS)}`;
    case "memory-edited":
      return `- Memory entry changed from: ${cut(line(change.before), LINE_MAX_CHARS / 2)} — to: ${cut(line(change.text), LINE_MAX_CHARS)}`;
    case "knowledge-index":
      return change.text.trim()
        ? `- ${KNOWLEDGE_INDEX_PATH} changed; it now reads:${blockOf(change.text, `read the rest with KnowledgeRead ${KNOWLEDGE_INDEX_PATH}`)}`
        : `- ${KNOWLEDGE_INDEX_PATH} was removed.`;
    case "file-added":
      return `- Knowledge file added: ${cut(line(change.path), 260)} (${change.bytes} bytes; read it with KnowledgeRead).`;
    case "file-replaced":
      return `- Knowledge file replaced: ${cut(line(change.path), 260)} (now ${change.bytes} bytes; what you read of it before may be out of date).`;
    case "file-removed":
      return `- Knowledge file removed: ${cut(line(change.path), 260)}.`;
    case "skill-added":
      return `- Skill added: ${cut(line(change.name), 64)}: ${cut(line(change.description), 300)} (load it with SkillLoad).`;
    case "skill-changed":
      return `- Skill changed: ${cut(line(change.name), 64)}: ${cut(line(change.description), 300)} (load it again with SkillLoad before using it).`;
    case "skill-removed":
      return `- Skill removed: ${cut(line(change.name), 64)}.`;
    case "agent-added":
      return `- Agent added: ${cut(line(change.id), 64)}: ${cut(line(change.description), 300)} (spawn it with AgentSpawn).`;
    case "agent-changed":
      return `- Agent changed: ${cut(line(change.id), 64)}: ${cut(line(change.description), 300)} (agents you spawn from now on follow the new definition).`;
    case "agent-removed":
      return `- Agent removed: ${cut(line(change.id), 64)} (AgentSpawn no longer knows it).`;
    case "facts-kept":
      return change.on ? `- ${FACTS_KEPT}` : `- ${FACTS_NOT_KEPT}`;
  }
}

/** A few words per change, for the chip and the inspector ("memory +2, file added notes/api.md"). */
export function summarizeChanges(changes: readonly WorkspaceChange[]): string {
  const counts = new Map<string, number>();
  const named: string[] = [];
  for (const c of changes) {
    if (c.kind === "memory-added") counts.set("memory +", (counts.get("memory +") ?? 0) + 1);
    else if (c.kind === "memory-removed") counts.set("memory −", (counts.get("memory −") ?? 0) + 1);
    else if (c.kind === "memory-edited") counts.set("memory edited ", (counts.get("memory edited ") ?? 0) + 1);
    else if (c.kind === "renamed") named.push("renamed");
    else if (c.kind === "instructions") named.push("instructions");
    else if (c.kind === "knowledge-index") named.push(KNOWLEDGE_INDEX_PATH);
    else if (c.kind === "file-added" || c.kind === "file-replaced" || c.kind === "file-removed") {
      named.push(`file ${c.kind.slice(5)} ${cut(line(c.path), 60)}`);
    } else if (c.kind === "skill-added" || c.kind === "skill-changed" || c.kind === "skill-removed") {
      named.push(`skill ${c.kind.slice(6)} ${cut(line(c.name), 40)}`);
    } else if (c.kind === "agent-added" || c.kind === "agent-changed" || c.kind === "agent-removed") {
      named.push(`agent ${c.kind.slice(6)} ${cut(line(c.id), 40)}`);
    } else if (c.kind === "facts-kept") named.push(c.on ? "facts kept" : "facts no longer kept");
  }
  const parts = [...[...counts].map(([k, n]) => `${k}${n}`), ...named];
  const text = parts.slice(0, 6).join(", ");
  return parts.length > 6 ? `${text}, and ${parts.length - 6} more` : text;
}

const HEAD = (name: string) =>
  `The workspace "${cut(line(name), 100)}" changed since your system prompt was written. The system prompt still shows it as it was; these changes hold from now on (the prompt takes them in at the next compression):`;

/** The Workspace hint for these changes, at most HINT_MAX_CHARS; the changes that do not fit are counted. */
export function renderWorkspaceHint(
  name: string,
  changes: readonly WorkspaceChange[],
): { fields: Record<string, string>; text: string } {
  const more = (n: number) =>
    `- … and ${n} more change${n === 1 ? "" : "s"}: list the knowledge files with KnowledgeList, read the instructions with InstructionsRead, search memory with MemorySearch.`;
  return {
    fields: { changes: summarizeChanges(changes) },
    text: bulletReminder(HEAD(name), changes.map(describeChange), more),
  };
}

const isText = (v: unknown): v is string => typeof v === "string";
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const listOf = <T>(value: unknown, pick: (item: Record<string, unknown>) => T | undefined): T[] =>
  Array.isArray(value) ? value.flatMap((item) => (isRecord(item) ? (pick(item) ?? []) : [])) : [];

/** A stored state read defensively: what is malformed is dropped; null when it is not a state at all. */
export function parseWorkspaceState(value: unknown): WorkspaceState | null {
  if (!isRecord(value) || !isText(value.name) || !isText(value.instructions) || !isText(value.knowledgeIndex))
    return null;
  return {
    name: value.name,
    instructions: value.instructions,
    knowledgeIndex: value.knowledgeIndex,
    memory: listOf(value.memory, (m) =>
      isText(m.id) && isText(m.text)
        ? {
            id: m.id,
            text: m.text,
            ...(isText(m.conversationId) ? { conversationId: m.conversationId } : {}),
            ...(m.fromCompression === true ? { fromCompression: true as const } : {}),
            ...((FACT_SOURCES as readonly unknown[]).includes(m.source) ? { source: m.source as FactSource } : {}),
          }
        : undefined,
    ),
    files: listOf(value.files, (f) =>
      isText(f.path) && typeof f.bytes === "number" && isText(f.updatedAt)
        ? { path: f.path, bytes: f.bytes, updatedAt: f.updatedAt }
        : undefined,
    ),
    skills: listOf(value.skills, (s) =>
      isText(s.name) && isText(s.description) ? { name: s.name, description: s.description } : undefined,
    ),
    ...(Array.isArray(value.agents)
      ? {
          agents: listOf(value.agents, (a) =>
            isText(a.id) && isText(a.description) ? { id: a.id, description: a.description } : undefined,
          ),
        }
      : {}),
    ...(typeof value.keepsFacts === "boolean" ? { keepsFacts: value.keepsFacts } : {}),
  };
}
