// Pure rules for what a workspace stores: knowledge paths, memory entries, skill names.
import { hasLineBreak, splitLines } from "./hints/neutralize-tags.ts";
import { MAX_KNOWLEDGE_PATH_CHARS } from "./workspace-limits.ts";

// C0 and C1 control characters (NUL among them) and the Unicode line/paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// Invisible format characters: bidi overrides, embeddings and isolates (U+202A–202E, U+2066–2069), marks (U+200E/F,
// U+061C), zero-width spaces and joiners, the BOM… (Unicode category Cf), except the zero-width joiner of emoji
// sequences; and lone surrogates. A name holding one can show as another name.
const INVISIBLE = /[\p{Cf}\p{Cs}]/u;

/**
 * The one spelling of a knowledge path: Unicode NFC, so that "café" typed precomposed or with a combining accent is
 * one file. Every way in (the API, the agent's tools) normalizes before it checks and stores.
 */
export const normalizeKnowledgePath = (path: string): string => path.normalize("NFC");

/** Why `path` is not a relative knowledge path ("notes/api.md"), or null when it is one. */
export function knowledgePathProblem(path: string): string | null {
  if (path.length === 0) return "must not be empty";
  if (path.length > MAX_KNOWLEDGE_PATH_CHARS)
    return `is ${path.length} characters, over the limit of ${MAX_KNOWLEDGE_PATH_CHARS}`;
  if (path.includes("\u0000")) return "must not contain a NUL character";
  if (CONTROL.test(path)) return "must not contain control characters";
  if (INVISIBLE.test(path.replaceAll("\u200d", ""))) {
    return "must not contain invisible format characters (right-to-left overrides and other bidirectional controls, zero-width spaces)";
  }
  if (path.includes("\\")) return "must use / between folders, not a backslash";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "must be relative (like notes/api.md), not absolute";
  const segments = path.split("/");
  if (segments.some((s) => s === "..")) return 'must not contain ".." (paths stay inside the workspace)';
  if (segments.some((s) => s === "." || s === "")) return 'must not contain empty or "." folders, or end with /';
  if (segments.some((s) => s.trim() !== s)) return "must not have folder or file names that start or end with spaces";
  return null;
}

/** The form two memory entries are compared in: case, Unicode width and runs of white space do not matter. */
export function normalizeMemoryEntry(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** The entries of a memory written as text: one per line, trimmed, blank lines left out. */
export function memoryLinesOf(text: string): string[] {
  return splitLines(text)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Why `text` is not one memory line, or null. */
export function memoryEntryProblem(text: string, maxChars: number): string | null {
  if (text.trim().length === 0) return "must not be empty";
  if (hasLineBreak(text))
    return "must be one line (no line breaks, NEL and line or paragraph separators included): write one entry per fact";
  if (text.length > maxChars) return `is ${text.length} characters, over the limit of ${maxChars}`;
  return null;
}

export const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The kebab-case id a name makes ("Packing List" → "packing-list", "Café Notes!" → "cafe-notes"): accents dropped,
 * every run of other characters one hyphen, cut at a hyphen to `maxChars`; "" when nothing of it is a letter or digit.
 */
export function slugFromName(name: string, maxChars = 64): string {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length <= maxChars) return slug;
  const cut = slug.slice(0, maxChars + 1);
  const atHyphen = cut.lastIndexOf("-");
  return (atHyphen > 0 ? cut.slice(0, atHyphen) : slug.slice(0, maxChars)).replace(/-+$/, "");
}
