// What a secret looks like in a text a library or a provider wrote (an error message, an error body that echoes the
// request): the log and a reply's stored error are scrubbed by the same rules. Besides the shapes, the values of the
// keys and tokens this server is configured with are redacted wherever they appear, whatever their shape.

/** Anything shaped like a credential: bearer and basic credentials, `sk-` and Google (`AIza`) keys, `key=value` pairs. */
const SECRET_SHAPES: Array<[RegExp, string]> = [
  [/\b(Bearer|Basic)\s+[^\s"',]+/gi, "$1 [redacted]"],
  [/\bsk-[A-Za-z0-9_-]{6,}/g, "sk-[redacted]"],
  [/\bAIza[A-Za-z0-9_-]{20,}/g, "AIza[redacted]"],
  [/\b(api[_-]?key|key|access[_-]?token|token|password|secret|cookie)([=:]\s*)[^\s&"',]+/gi, "$1$2[redacted]"],
];

/** The variables whose values are secrets; a value shorter than this is not searched for (it would match ordinary words). */
const SECRET_VARIABLES = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "HINTLINE_AUTH_TOKEN",
  "HINTLINE_AUTH_SECRET",
];
const MIN_SECRET_LENGTH = 8;

const holder = globalThis as unknown as { __hintlineSecretSources?: Set<() => string[]> };
holder.__hintlineSecretSources ??= new Set();

/** Secrets this server holds beyond its environment (the keys of connections added over the API), redacted likewise. */
export function addSecretSource(source: () => string[]): void {
  holder.__hintlineSecretSources!.add(source);
}

/** The configured secret values long enough to look for, longest first (one may contain another). */
export function configuredSecrets(env: Record<string, string | undefined> = process.env): string[] {
  const held = [...holder.__hintlineSecretSources!].flatMap((source) => source());
  const values = [...SECRET_VARIABLES.map((name) => env[name]?.trim() ?? ""), ...held].filter(
    (value) => value.length >= MIN_SECRET_LENGTH,
  );
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

/** `text` with the configured secrets and anything shaped like a credential replaced by `[redacted]`. */
export function scrub(text: string, secrets: readonly string[] = configuredSecrets()): string {
  let out = text;
  for (const secret of secrets) out = out.replaceAll(secret, "[redacted]");
  for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
  return out;
}
