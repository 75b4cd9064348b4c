// MCP tool drift, the pure rules: a tool's definition (description, input schema, annotations) as one canonical text
// that is fingerprinted when the tool is first seen; a later definition that differs blocks the tool until the person
// accepts the change. The text is what the person reviews, so it is readable: pretty JSON with sorted keys.
import type { McpAnnotations } from "./mcp-rules.ts";

export type McpToolShape = { description?: string; inputSchema?: unknown; annotations?: unknown };

/** Stored definitions are cut here (a server could send anything); the fingerprint is taken of the whole text. */
export const MCP_DEFINITION_MAX_CHARS = 20_000;

function sorted(value: unknown, depth = 0): unknown {
  if (depth > 32) return "…";
  if (Array.isArray(value)) return value.map((v) => sorted(v, depth + 1));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key], depth + 1)]),
    );
  }
  return value;
}

/** The definition as one canonical text: the same definition gives the same text whatever its keys' order. */
export function canonicalDefinition(tool: McpToolShape): string {
  return JSON.stringify(
    sorted({
      description: tool.description ?? "",
      inputSchema: tool.inputSchema ?? {},
      annotations: tool.annotations ?? {},
    }),
    null,
    2,
  );
}

/** The stored text of a definition back into its parts (defensive: a damaged text is an empty definition). */
export function parseDefinition(text: string): {
  description: string;
  inputSchema: unknown;
  annotations: McpAnnotations;
} {
  try {
    const value = JSON.parse(text) as { description?: unknown; inputSchema?: unknown; annotations?: unknown };
    return {
      description: typeof value.description === "string" ? value.description : "",
      inputSchema: value.inputSchema && typeof value.inputSchema === "object" ? value.inputSchema : {},
      annotations: (value.annotations && typeof value.annotations === "object"
        ? value.annotations
        : {}) as McpAnnotations,
    };
  } catch {
    return { description: "", inputSchema: {}, annotations: {} };
  }
}

export type DriftState = { state: "new" } | { state: "same" } | { state: "changed"; approved: string };

/** How the definition seen now compares with the approved one (none stored: seen for the first time). */
export function driftOf(
  approvedHash: string | undefined,
  currentHash: string,
  approved: string | undefined,
): DriftState {
  if (approvedHash === undefined) return { state: "new" };
  return approvedHash === currentHash ? { state: "same" } : { state: "changed", approved: approved ?? "" };
}

export type DiffLine = { kind: "same" | "removed" | "added"; text: string };

/** A line diff of two texts (longest common subsequence; texts beyond 2,000 lines are compared as whole blocks). */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
  if (a.length * b.length > 4_000_000)
    return [
      ...a.map((text) => ({ kind: "removed" as const, text })),
      ...b.map((text) => ({ kind: "added" as const, text })),
    ];
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: "same", text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ kind: "removed", text: a[i++]! });
    else out.push({ kind: "added", text: b[j++]! });
  }
  while (i < a.length) out.push({ kind: "removed", text: a[i++]! });
  while (j < b.length) out.push({ kind: "added", text: b[j++]! });
  return out;
}
