// A tool as a small window's fixed part sends it (lib/agent/fixed-part.ts, style "compact"): its one-line brief for a
// description and its input schema without the parameters' descriptions. Its name, what it does, how its input is
// checked (the original schema still validates it) and the result the model reads stay the same.
import { asSchema, type JSONSchema7, jsonSchema, type Tool } from "ai";

/** JSON Schema keys that only describe: left out of a compact schema. */
const DESCRIBING_KEYS = new Set(["$schema", "description", "title", "examples"]);

/** A schema without what only describes, at every depth (a property named "description" stays: it is data). */
export function withoutDescriptions(schema: unknown, isProperties = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withoutDescriptions(item));
  if (!schema || typeof schema !== "object") return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!isProperties && DESCRIBING_KEYS.has(key)) continue;
    // zod's bound for an integer without one says nothing the type does not.
    if (!isProperties && key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    kept[key] = withoutDescriptions(value, !isProperties && key === "properties");
  }
  return kept;
}

/** The tool with its brief and its compact schema; the original schema validates every input. */
export function compactTool(tool: Tool, brief: string): Tool {
  const original = asSchema(tool.inputSchema as Parameters<typeof asSchema>[0]);
  const compactSchema = jsonSchema(() => withoutDescriptions(original.jsonSchema) as JSONSchema7, {
    ...(original.validate ? { validate: (value: unknown) => original.validate!(value) } : {}),
  });
  return { ...tool, description: brief, inputSchema: compactSchema } as Tool;
}
