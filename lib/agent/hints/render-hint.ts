// Rendering a hint: fields in the spec's order, values escaped so nothing can close or forge a tag, substituted
// into the template at every `{runtime_state}`.

export const RUNTIME_STATE_PLACEHOLDER = "{runtime_state}";
const BUILT_IN_ORDER = ["current-time", "timezone", "tasks", "context-length"] as const;

export function escapeValue(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function unescapeValue(value: string): string {
  return value.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/**
 * Orders the fields: built-ins first (current-time, timezone, tasks, context-length), then extra fields in insertion
 * order. An extra field named like a present built-in replaces its value in place.
 */
export function orderFields(builtIns: Record<string, string>, extraFields: Record<string, string>): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (const key of BUILT_IN_ORDER) {
    if (builtIns[key] !== undefined) fields.push([key, extraFields[key] ?? builtIns[key]]);
  }
  for (const [key, value] of Object.entries(extraFields)) {
    if (!fields.some(([k]) => k === key)) fields.push([key, value]);
  }
  return fields;
}

export function renderHint(template: string, fields: Array<[string, string]>): string {
  const state = fields.map(([key, value]) => `<${key}>${escapeValue(value)}</${key}>`).join("\n");
  return template.split(RUNTIME_STATE_PLACEHOLDER).join(state);
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
