// The rules of a workspace's state sources (issue 48), pure: their names and limits, and what a source's answer must
// be — a flat object of at most STATE_MAX_FIELDS fields, each named plainly and holding a string or a number. Anything
// else is a failure in words that never quote the answer.
import { neutralizeHintTags } from "./hints/neutralize-tags.ts";

export const STATE_SOURCE_KINDS = ["http", "mcp-resource"] as const;
export type StateSourceKind = (typeof STATE_SOURCE_KINDS)[number];
export const STATE_SOURCE_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const STATE_SOURCE_NAME_MAX_CHARS = 32;
export const MAX_STATE_SOURCES = 20;

export const DEFAULT_REFRESH_SECONDS = 60;
export const MIN_REFRESH_SECONDS = 10;
export const MAX_REFRESH_SECONDS = 86_400;
export const DEFAULT_STATE_TIMEOUT_SECONDS = 2;
export const MAX_STATE_TIMEOUT_SECONDS = 30;
export const DEFAULT_STATE_MAX_TOKENS = 200;
export const MIN_STATE_MAX_TOKENS = 50;
export const MAX_STATE_MAX_TOKENS = 500;

export const STATE_MAX_FIELDS = 50;
/** The most bytes of a source's answer that are read (an answer growing past it is a failure). */
export const STATE_MAX_BYTES = 32 * 1024;
/** A late answer is waited for this long at most (a step waits no longer than the source's timeout). */
export const STATE_READ_HARD_LIMIT_MS = 30_000;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

export type StateFields = Record<string, string>;
export type ParsedState = { ok: true; fields: StateFields } | { ok: false; reason: string };

/** Why `name` cannot be a field's element name, or undefined when it can. */
function fieldNameProblem(name: string): string | undefined {
  if (!FIELD_NAME.test(name))
    return "a field name is not a plain name (a letter or _ then up to 63 letters, digits, _ . -)";
  // A field named like one of the harness's own tags (<current-time>, <tasks>, <system-reminder>…) could pass for it.
  if (neutralizeHintTags(`<${name}>`) !== `<${name}>`) return `the field name ${name} is one of Hintline's own tags`;
  return undefined;
}

/** A source's answer (its text) as fields, or why it is not a flat object of strings and numbers. */
export function parseStateAnswer(text: string): ParsedState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "the answer is not JSON" };
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    return {
      ok: false,
      reason: `the answer is ${Array.isArray(value) ? "an array" : "not an object"}, not a flat JSON object of fields`,
    };
  const entries = Object.entries(value);
  if (entries.length > STATE_MAX_FIELDS)
    return { ok: false, reason: `the answer has ${entries.length} fields, over the limit of ${STATE_MAX_FIELDS}` };
  const fields: StateFields = {};
  for (const [name, field] of entries) {
    const problem = fieldNameProblem(name);
    if (problem) return { ok: false, reason: problem };
    if (typeof field === "string") fields[name] = field;
    else if (typeof field === "number" && Number.isFinite(field)) fields[name] = String(field);
    else return { ok: false, reason: `the field ${name} is not a string or a number` };
  }
  return { ok: true, fields };
}
