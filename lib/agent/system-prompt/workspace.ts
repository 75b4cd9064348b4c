// The workspace section of the system prompt (after the reference's WorkspaceContextMiddleware) and the
// <available_skills> list (its HarnessSkillMiddleware). Both add nothing when the workspace gives them nothing, so a
// conversation without workspace content keeps the prompt it had. Stored text is escaped: it can neither forge
// Hintline's hint tags nor close the workspace's own. How much of each part they hold is context.cuts (budget.ts).
import { neutralizeHintTags, oneLine as plainOneLine, withPlainLineBreaks } from "../hints/neutralize-tags.ts";
import { cutToTokens } from "./transformers.ts";
import type { PromptSection, PromptTransformer, WorkspaceSnapshot } from "./types.ts";

export type { WorkspaceSnapshot };

/**
 * Stored text as it may appear inside the section: the one escaper (every spelling of a hint's or this section's own
 * tags), with every kind of line break written as a plain newline.
 */
export function escapeWorkspaceText(text: string): string {
  return neutralizeHintTags(withPlainLineBreaks(text));
}

/** A stored field on one line (memory entries, skills, paths, the name): no line break of any kind survives. */
export const oneLine = (text: string) => plainOneLine(text).replace(/\s+/g, " ").trim();

export const WORKSPACE_GUIDANCE = [
  "## Domain Knowledge",
  "The knowledge folder is the authoritative source for this workspace's domain. KNOWLEDGE.md and the list of every file are injected below; read only the files you need with KnowledgeRead (or find lines with KnowledgeSearch), never the whole folder.",
  "## Memory Recall",
  "Before answering about past decisions, dates, people or preferences, check the memory below and search it with MemorySearch when it may hold more; say where the answer came from.",
  "## Memory Persistence",
  "When the person states a preference, a background fact or a decision, or a key result appears, append one concise entry with MemoryWrite. Never write an entry that is already there.",
].join("\n");

/** What the memory guidance adds where the system keeps durable facts (a Workspace hint says it when that changes). */
export const FACTS_KEPT =
  "Durable facts are also kept for you: when a conversation of this workspace is compressed or ends (left idle, or archived), a few facts from the person's words and the agent's own (never from tool results, hints, attachments or subagents) join this memory as the system's, each with its conversation and whose words it came from.";

/** Said of the workspace's instructions when it has any (the reference's AGENTS.md: the conventions to honour). */
export const RULES_TO_FOLLOW =
  "## Workspace Rules\nThe workspace instructions below (<agents_context>) are this workspace's standing rules and conventions: follow them in everything you do here, as long as they are safe and the person does not ask otherwise.";

/** What the loaded context is (the reference: files loaded from your workspace). */
export const LOADED_FROM_WORKSPACE =
  "The <loaded_context> below was loaded from this workspace's files: its instructions (like AGENTS.md), its memory (like MEMORY.md), KNOWLEDGE.md and the list of its knowledge files. They hold what earlier conversations here learned and decided: facts, preferences and rules.";

/** The workspace's guidance in brief (a small window's fixed part): only what the workspace holds is spoken of. */
export function compactWorkspaceGuidance(has: { knowledge: boolean; instructions: boolean; keepsFacts: boolean }) {
  return [
    ...(has.instructions ? ["Follow the workspace instructions (<agents_context>) below."] : []),
    ...(has.knowledge
      ? [
          "KNOWLEDGE.md and the knowledge files are listed below: read those you need with KnowledgeRead (or KnowledgeSearch).",
        ]
      : []),
    `Check the memory below (MemorySearch finds more) before answering about past decisions or preferences; add a new preference, fact or decision with MemoryWrite.${has.keepsFacts ? " Durable facts are also kept for you: when a conversation here is compressed or ends, the system adds a few." : ""}`,
  ].join("\n");
}

/** The first `keep` lines (every line when `keep` is unset or covers them), with `note` when some were left out. */
function firstLines(lines: readonly string[], keep: number | undefined, note: (shown: number) => string): string {
  if (keep === undefined || keep >= lines.length) return lines.join("\n");
  const shown = Math.max(0, keep);
  return [...lines.slice(0, shown), note(shown)].join("\n");
}

/** The memory entries as the prompt lists them, oldest first. */
export const memoryLines = (entries: readonly string[]) => entries.map((e) => `- ${escapeWorkspaceText(oneLine(e))}`);
/** KNOWLEDGE.md's lines as the prompt holds them (none when it is empty). */
export function knowledgeLines(index: string): string[] {
  const text = escapeWorkspaceText(index.trim());
  return text ? text.split("\n") : [];
}
/** The knowledge files as the prompt lists them. */
export const fileLines = (files: WorkspaceSnapshot["files"]) =>
  files.map((f) => `- ${escapeWorkspaceText(oneLine(f.path))} (${f.bytes} bytes)`);
/** The skills as the prompt lists them: by name alone, and with their descriptions. */
export function skillLines(skills: WorkspaceSnapshot["skills"]): Array<{ name: string; described: string }> {
  return skills.map((s) => {
    const name = `- ${escapeWorkspaceText(oneLine(s.name))}`;
    return { name, described: `${name}: ${escapeWorkspaceText(oneLine(s.description))}` };
  });
}

/** The workspace instructions cut to `keep` tokens (whole when unset or enough), saying so and where the rest is. */
export function instructionsWithin(
  text: string,
  keep: number | undefined,
  budget: number,
  countTokens: (t: string) => number,
): string {
  if (keep === undefined) return text;
  const total = countTokens(text);
  if (keep >= total) return text;
  const shown = cutToTokens(text, keep, countTokens);
  const note = `[Instructions cut to the budget (${budget} tokens): ${shown ? countTokens(shown) : 0} of ${total} tokens shown. Read them whole with InstructionsRead.]`;
  return shown ? `${shown}\n${note}` : note;
}

export const workspaceSection: PromptTransformer = (sections, context) => {
  const ws = context.workspace;
  if (!ws) return sections;
  const instructions = ws.instructions.trim() ? escapeWorkspaceText(ws.instructions.trim()) : "";
  if (!instructions && !ws.knowledgeIndex.trim() && ws.files.length === 0 && ws.memory.length === 0) return sections;
  const cuts = context.cuts;
  const name = escapeWorkspaceText(oneLine(ws.name));
  const guidance = ws.keepsFacts ? `${WORKSPACE_GUIDANCE}\n${FACTS_KEPT}` : WORKSPACE_GUIDANCE;
  const hasKnowledge = Boolean(ws.knowledgeIndex.trim()) || ws.files.length > 0;
  const head = context.compact
    ? `# Workspace\nWorkspace: ${name}\n${compactWorkspaceGuidance({ knowledge: hasKnowledge, instructions: Boolean(instructions), keepsFacts: Boolean(ws.keepsFacts) })}\n<loaded_context>`
    : `# Workspace\nWorkspace: ${name}\n\n${guidance}\n${instructions ? `${RULES_TO_FOLLOW}\n` : ""}\n## Workspace Files (Injected)\n${LOADED_FROM_WORKSPACE}\n<loaded_context>`;
  const agents = instructions
    ? `\n<agents_context>\n${instructionsWithin(instructions, cuts?.instructions, context.workspaceBudget, context.countTokens)}\n</agents_context>`
    : "";
  const memory = memoryLines(ws.memory);
  const memoryNote = (shown: number) =>
    `[Memory cut to the budget: ${shown} of ${memory.length} entries shown. Search the rest with MemorySearch.]`;
  const memoryPart = memory.length
    ? `\n<memory_context>\n${firstLines(memory, cuts?.memory, memoryNote)}\n</memory_context>`
    : "";
  const index = knowledgeLines(ws.knowledgeIndex);
  const indexNote = (shown: number) =>
    `[KNOWLEDGE.md cut to the budget: ${shown} of ${index.length} lines shown. Read the rest with KnowledgeRead KNOWLEDGE.md.]`;
  const files = fileLines(ws.files);
  const filesNote = (shown: number) =>
    `[File list cut to the budget: ${shown} of ${files.length} files listed. List them all with KnowledgeList.]`;
  const knowledge = [
    ...(index.length ? [firstLines(index, cuts?.knowledge, indexNote)] : []),
    ...(files.length ? [`Files (read with KnowledgeRead):\n${firstLines(files, cuts?.files, filesNote)}`] : []),
  ].join("\n\n");
  const domain = knowledge ? `\n<domain_knowledge_context>\n${knowledge}\n</domain_knowledge_context>` : "";
  const section: PromptSection = {
    id: "workspace",
    title: "Workspace",
    origin: `workspace ${oneLine(ws.name)}`,
    text: `${head}${agents}${memoryPart}${domain}\n</loaded_context>`,
  };
  return [...sections, section];
};

export const availableSkills: PromptTransformer = (sections, context) => {
  const skills = skillLines(context.workspace?.skills ?? []);
  if (skills.length === 0) return sections;
  const level = Math.max(0, context.cuts?.skills ?? 2 * skills.length);
  const lines =
    level <= skills.length
      ? skills.slice(0, level).map((s) => s.name)
      : skills.map((s, i) => (i < level - skills.length ? s.described : s.name));
  if (level < skills.length)
    lines.push(`[Skills cut to the budget: ${level} of ${skills.length} listed. SkillLoad loads any skill by name.]`);
  else if (level < 2 * skills.length)
    lines.push(
      `[Skill descriptions cut to the budget: ${level - skills.length} of ${skills.length} shown. SkillLoad loads any skill by name.]`,
    );
  const text = `# Skills\nLoad a skill's full instructions with SkillLoad when it is relevant, then follow them.\n<available_skills>\n${lines.join("\n")}\n</available_skills>`;
  return [
    ...sections,
    { id: "skills", title: "Available skills", origin: `workspace ${oneLine(context.workspace!.name)}`, text },
  ];
};
