// JSON.parse as the AI SDK reads a stream's JSON (its secure-json-parse, from `ai` 7's provider-utils, Apache-2.0):
// an object with a `__proto__` key or a `constructor.prototype`, at any depth, is refused rather than parsed. Pure.

const SUSPECT_PROTO =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;
const SUSPECT_CONSTRUCTOR =
  /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:/;

const own = (value: object, key: string) => Object.hasOwn(value, key);

function refusePrototypeKeys(root: object): void {
  let next: object[] = [root];
  while (next.length > 0) {
    const nodes = next;
    next = [];
    for (const node of nodes) {
      const maker = (node as { constructor?: unknown }).constructor;
      if (
        own(node, "__proto__") ||
        (own(node, "constructor") && maker !== null && typeof maker === "object" && own(maker, "prototype"))
      )
        throw new SyntaxError("Object contains forbidden prototype property");
      for (const value of Object.values(node)) if (value && typeof value === "object") next.push(value);
    }
  }
}

/** JSON.parse, refusing an object with a `__proto__` key or a `constructor.prototype` (as the AI SDK does). */
export function secureJsonParse(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== "object") return value;
  if (SUSPECT_PROTO.test(text) || SUSPECT_CONSTRUCTOR.test(text)) refusePrototypeKeys(value);
  return value;
}
