// The system prompt. It holds nothing volatile (no time, counts or usage — those arrive as hints), so it stays
// byte-identical from call to call until the person edits it.
import type { Settings } from "./settings.ts";

export const BASE_PROMPT = [
  "You are Hintline, a helpful assistant in a chat with a person.",
  "Answer clearly and concisely; use Markdown where it helps (lists, code blocks).",
].join("\n");

export function buildSystemPrompt(settings: Settings): string {
  const sections = [settings.prompt.base?.trim() || BASE_PROMPT];
  if (settings.prompt.instructions?.trim()) sections.push(`# Instructions\n${settings.prompt.instructions.trim()}`);
  if (settings.prompt.memory?.trim()) sections.push(`# Memory\n${settings.prompt.memory.trim()}`);
  return sections.join("\n\n");
}
