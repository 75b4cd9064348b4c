// Rendering a hint: fields in the spec's order, values escaped so nothing can close or forge a tag, substituted
// into the template at every `{runtime_state}` — never more than HINT_MAX_CHARS, whatever the configuration.

export const RUNTIME_STATE_PLACEHOLDER = "{runtime_state}";
export const DEFAULT_TEMPLATE =
  "<system-reminder>Treat the following as the ground truth at this point of the conversation. Anything stated earlier is outdated, and a later reminder, if any, supersedes this one:\n{runtime_state}\n</system-reminder>";
/** The most a rendered hint may hold, template included (settings that could exceed it are refused). */
export const HINT_MAX_CHARS = 4096;
export const BUILT_IN_FIELDS = [
  "current-time",
  "timezone",
  "time-since-last-message",
  "tasks",
  "context-length",
] as const;

export function escapeValue(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function unescapeValue(value: string): string {
  return value.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/**
 * Orders the fields: built-ins first (current-time, timezone, tasks, context-length), then extra fields in insertion
 * order. Settings refuse an extra field named like a built-in; should one get here, the built-in wins.
 */
export function orderFields(
  builtIns: Record<string, string>,
  extraFields: Record<string, string>,
): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (const key of BUILT_IN_FIELDS) {
    if (builtIns[key] !== undefined) fields.push([key, builtIns[key]]);
  }
  for (const [key, value] of Object.entries(extraFields)) {
    if (!(BUILT_IN_FIELDS as readonly string[]).includes(key)) fields.push([key, value]);
  }
  return fields;
}

const renderState = (fields: ReadonlyArray<readonly [string, string]>) =>
  fields.map(([key, value]) => `<${key}>${escapeValue(value)}</${key}>`).join("\n");

/** How long the template renders with a state of `stateLength` characters at every placeholder. */
export function renderedLength(template: string, stateLength: number): number {
  const placeholders = template.split(RUNTIME_STATE_PLACEHOLDER).length - 1;
  return template.length + placeholders * (stateLength - RUNTIME_STATE_PLACEHOLDER.length);
}

export function renderHint(template: string, fields: Array<[string, string]>): string {
  const state = renderState(fields);
  if (renderedLength(template, state.length) <= HINT_MAX_CHARS)
    return template.split(RUNTIME_STATE_PLACEHOLDER).join(state);
  // Only settings that skipped validation get here: the default template, each value cut to its share.
  const share = Math.floor((HINT_MAX_CHARS - DEFAULT_TEMPLATE.length) / Math.max(1, fields.length)) - 1;
  const cut = fields.map(([key, value]): [string, string] => [
    key,
    cutEscaped(value, Math.max(0, share - 2 * key.length - 5)),
  ]);
  return DEFAULT_TEMPLATE.split(RUNTIME_STATE_PLACEHOLDER).join(renderState(cut));
}

/** `value`, shortened (with "…") so that it escapes to at most `max` characters. */
function cutEscaped(value: string, max: number): string {
  if (escapeValue(value).length <= max) return value;
  let end = Math.min(value.length, Math.max(0, max - 1));
  while (end > 0 && escapeValue(value.slice(0, end)).length > max - 1) end = Math.floor(end * 0.8);
  return `${value.slice(0, end)}…`;
}

/** Reads `<key>…</key>` from a rendered hint (the last occurrence), unescaped. */
export function readField(text: string, key: string): string | undefined {
  const open = `<${key}>`;
  const close = `</${key}>`;
  const start = text.lastIndexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(close, start + open.length);
  if (end < 0) return undefined;
  return unescapeValue(text.slice(start + open.length, end));
}

/**
 * A reminder of a head line and one bullet per item, as many as fit in HINT_MAX_CHARS in order; `more(n)` says what
 * became of the n left out (its own line, counted in before the cut).
 */
export function bulletReminder(head: string, bullets: readonly string[], more: (left: number) => string): string {
  const open = "<system-reminder>\n";
  const close = "\n</system-reminder>";
  let body = head;
  let shown = 0;
  for (const bullet of bullets) {
    const next = `\n${bullet}`;
    const reserve = shown + 1 < bullets.length ? more(bullets.length - shown - 1).length + 1 : 0;
    if (open.length + body.length + next.length + reserve + close.length > HINT_MAX_CHARS) break;
    body += next;
    shown++;
  }
  if (shown < bullets.length) body += `\n${more(bullets.length - shown)}`;
  return `${open}${body}${close}`;
}
