// The workspace section of the system prompt (after the reference's WorkspaceContextMiddleware) and the
// <available_skills> list (its HarnessSkillMiddleware). Both add nothing when the workspace gives them nothing, so a
// conversation without workspace content keeps the prompt it had. Stored text is escaped: it can neither forge
// Hintline's hint tags nor close the workspace's own.
import { neutralizeHintTags, oneLine as plainOneLine, withPlainLineBreaks } from "../hints/neutralize-tags.ts";
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

/**
 * The leading `lines` that fit `budget` tokens with the note that says how many were shown (all of them, without a
 * note, when they fit).
 */
function linesWithin(lines: readonly string[], budget: number, countTokens: (t: string) => number, note: (shown: number) => string): { text: string; shown: number } {
  const all = lines.join("\n");
  if (countTokens(all) <= budget) return { text: all, shown: lines.length };
  let room = budget - countTokens(note(lines.length));
  const kept: string[] = [];
  for (const line of lines) {
    const cost = countTokens(`${line}\n`);
    if (cost > room) break;
    kept.push(line);
    room -= cost;
  }
  return { text: [...kept, note(kept.length)].join("\n"), shown: kept.length };
}

/** KNOWLEDGE.md's lines that fit `budget` tokens, with a note when the rest was left out. */
export function knowledgeIndexWithin(index: string, budget: number, countTokens: (t: string) => number): string {
  const text = escapeWorkspaceText(index.trim());
  if (!text) return text;
  const lines = text.split("\n");
  const note = (shown: number) => `[KNOWLEDGE.md cut to the budget: ${shown} of ${lines.length} lines shown. Read the rest with KnowledgeRead KNOWLEDGE.md.]`;
  return linesWithin(lines, budget, countTokens, note).text;
}

function knowledgeBlock(ws: WorkspaceSnapshot, index: string): string {
  const parts: string[] = [];
  if (index) parts.push(index);
  if (ws.files.length) parts.push(["Files (read with KnowledgeRead):", ...ws.files.map((f) => `- ${escapeWorkspaceText(oneLine(f.path))} (${f.bytes} bytes)`)].join("\n"));
  return parts.join("\n\n");
}

/** The memory entries that fit `budget` tokens, oldest first, with a note when some were left out. */
export function memoryWithin(entries: readonly string[], budget: number, countTokens: (t: string) => number): { text: string; shown: number } {
  const lines = entries.map((e) => `- ${escapeWorkspaceText(oneLine(e))}`);
  const note = (shown: number) => `[Memory cut to the budget: ${shown} of ${lines.length} entries shown. Search the rest with MemorySearch.]`;
  return linesWithin(lines, budget, countTokens, note);
}

export const workspaceSection: PromptTransformer = (sections, context) => {
  const ws = context.workspace;
  if (!ws) return sections;
  const instructions = ws.instructions.trim() ? escapeWorkspaceText(ws.instructions.trim()) : "";
  if (!instructions && !ws.knowledgeIndex.trim() && ws.files.length === 0 && ws.memory.length === 0) return sections;
  const head = `# Workspace\nWorkspace: ${escapeWorkspaceText(oneLine(ws.name))}\n\n${WORKSPACE_GUIDANCE}\n\n## Workspace Files (Injected)\n<loaded_context>`;
  const agents = instructions ? `\n<agents_context>\n${instructions}\n</agents_context>` : "";
  // Fixed parts first: the instructions and the file list whole, KNOWLEDGE.md up to half of what they leave, and
  // memory gets the rest.
  const fixed = context.countTokens(`${head}${agents}${knowledgeBlock(ws, "")}\n</loaded_context>`) + 40;
  const index = knowledgeIndexWithin(ws.knowledgeIndex, Math.max(0, Math.floor((context.workspaceBudget - fixed) / 2)), context.countTokens);
  const knowledge = knowledgeBlock(ws, index);
  const domain = knowledge ? `\n<domain_knowledge_context>\n${knowledge}\n</domain_knowledge_context>` : "";
  const tail = "\n</loaded_context>";
  let memoryPart = "";
  if (ws.memory.length) {
    const frame = "\n<memory_context>\n\n</memory_context>";
    const available = context.workspaceBudget - context.countTokens(head + agents + domain + tail + frame);
    const { text } = memoryWithin(ws.memory, Math.max(0, available), context.countTokens);
    memoryPart = `\n<memory_context>\n${text}\n</memory_context>`;
  }
  const section: PromptSection = { id: "workspace", title: "Workspace", origin: `workspace ${oneLine(ws.name)}`, text: head + agents + memoryPart + domain + tail };
  return [...sections, section];
};

export const availableSkills: PromptTransformer = (sections, context) => {
  const skills = context.workspace?.skills ?? [];
  if (skills.length === 0) return sections;
  const lines = skills.map((s) => `- ${escapeWorkspaceText(oneLine(s.name))}: ${escapeWorkspaceText(oneLine(s.description))}`);
  const text = `# Skills\nLoad a skill's full instructions with SkillLoad when it is relevant, then follow them.\n<available_skills>\n${lines.join("\n")}\n</available_skills>`;
  return [...sections, { id: "skills", title: "Available skills", origin: `workspace ${oneLine(context.workspace!.name)}`, text }];
};
