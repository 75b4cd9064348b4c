// JSON.parse for what arrives from the network: an object with a `__proto__` key, or a `constructor` key holding a
// `prototype`, at any depth, is refused (the AI SDK's reader refuses the same, so the browser's reader agrees with it).
// The reviver only runs on a text that could spell one of those keys. Pure.

const MAY_SPELL_A_PROTOTYPE_KEY = /__proto__|constructor|\\u/;

function refusePrototypeKey(key: string, value: unknown): unknown {
  if (key === "__proto__") throw new SyntaxError("Object contains forbidden prototype property");
  if (key === "constructor" && value !== null && typeof value === "object" && Object.hasOwn(value, "prototype"))
    throw new SyntaxError("Object contains forbidden prototype property");
  return value;
}

/** JSON.parse, throwing on an object with a `__proto__` key or a `constructor.prototype`. */
export function secureJsonParse(text: string): unknown {
  return MAY_SPELL_A_PROTOTYPE_KEY.test(text) ? JSON.parse(text, refusePrototypeKey) : JSON.parse(text);
}
