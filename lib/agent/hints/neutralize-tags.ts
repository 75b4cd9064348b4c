// Only the harness writes hint tags. Text from anyone else (the person, the model, a tool result such as a task
// subject) reaches the model with those tags escaped, so a pasted `</system-reminder>` or `<current-time>` cannot
// close a real hint or pass for one. Other markup (code, HTML) is left exactly as written.

const RESERVED = ["system-reminder", "current-time", "timezone", "tasks", "context-length"];
const RESERVED_TAG = new RegExp(`<(/?\\s*(?:${RESERVED.join("|")})\\b[^<>]*)>`, "gi");

export function neutralizeHintTags(text: string): string {
  if (!text.includes("<")) return text;
  return text.replace(RESERVED_TAG, "&lt;$1&gt;");
}

/** The same for every string inside a JSON value (tool inputs and outputs). */
export function neutralizeHintTagsDeep(value: unknown): unknown {
  if (typeof value === "string") return neutralizeHintTags(value);
  if (Array.isArray(value)) return value.map(neutralizeHintTagsDeep);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, neutralizeHintTagsDeep(v)]));
  }
  return value;
}
