// A tool's input while it streams in: the JSON text so far, completed into the value it has reached — an open string
// or container closed, a key with no value yet left out, a number cut to its last whole form, a literal finished — so
// a streaming tool row shows the input so far. lib/stores/ui-message-stream.test.ts holds its results to the AI SDK's
// parsePartialJson at every prefix. Pure.
import { secureJsonParse } from "./secure-json";

/** The text is not the start of any JSON value. */
class NotJson extends Error {}

/** A value's text completed, and whether the input ended inside it. */
type Completed = { text: string; cut: boolean };

const LITERALS = ["true", "false", "null"];
const WHOLE_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;
/** The longest start of a JSON number ("1.", "1e+" and "-" included; "1.e5" stops at "1."). */
const NUMBER_SO_FAR = /^-?(?:(?:0|[1-9]\d*)(?:\.\d+(?:[eE][+-]?\d*)?|\.|[eE][+-]?\d*)?)?/;

class PrefixCompleter {
  private at = 0;

  constructor(private readonly input: string) {}

  /** The text's one value, completed ("" when none shows yet); anything after it is not JSON. */
  whole(): string {
    const read = this.value();
    this.skipSpace();
    if (!this.ended) this.fail();
    return read?.text ?? "";
  }

  private get ended(): boolean {
    return this.at >= this.input.length;
  }

  private skipSpace(): void {
    while (!this.ended && " \t\n\r".includes(this.input.charAt(this.at))) this.at++;
  }

  /** The value starting here, or undefined when the input ends before any of it can be shown. */
  value(): Completed | undefined {
    this.skipSpace();
    if (this.ended) return undefined;
    const char = this.input.charAt(this.at);
    if (char === "{") return this.container("}", () => this.member());
    if (char === "[") return this.container("]", () => this.value());
    if (char === '"') return this.string();
    if (char === "-" || (char >= "0" && char <= "9")) return this.number();
    return this.literal();
  }

  /** An object or array: its entries so far, closed. `entry` reads one (undefined: cut before it shows). */
  private container(close: string, entry: () => Completed | undefined): Completed {
    const open = this.input.charAt(this.at++);
    const shown: string[] = [];
    const done = (cut: boolean): Completed => ({ text: `${open}${shown.join(",")}${close}`, cut });
    this.skipSpace();
    if (this.ended) return done(true);
    if (this.input.charAt(this.at) === close) {
      this.at++;
      return done(false);
    }
    for (;;) {
      const read = entry();
      if (read) shown.push(read.text);
      if (!read || read.cut) return done(true);
      this.skipSpace();
      if (this.ended) return done(true);
      const next = this.input.charAt(this.at++);
      if (next === close) return done(false);
      if (next !== ",") throw new NotJson();
    }
  }

  /** `"key": value`, shown only once its value shows. */
  private member(): Completed | undefined {
    this.skipSpace();
    if (this.ended) return undefined;
    if (this.input.charAt(this.at) !== '"') throw new NotJson();
    const key = this.string();
    if (key.cut) return undefined;
    this.skipSpace();
    if (this.ended) return undefined;
    if (this.input.charAt(this.at++) !== ":") throw new NotJson();
    const value = this.value();
    return value && { text: `${key.text}:${value.text}`, cut: value.cut };
  }

  /** A string, closed where the input ends (an escape cut short is left out). */
  private string(): Completed {
    const start = this.at++;
    for (;;) {
      if (this.ended) return { text: `${this.input.slice(start)}"`, cut: true };
      const char = this.input.charAt(this.at);
      if (char === '"') return { text: this.input.slice(start, ++this.at), cut: false };
      if (char !== "\\") {
        this.at++;
        continue;
      }
      const escapeLength = this.input.charAt(this.at + 1) === "u" ? 6 : 2;
      if (this.at + escapeLength > this.input.length) {
        const text = `${this.input.slice(start, this.at)}"`;
        this.at = this.input.length;
        return { text, cut: true };
      }
      this.at += escapeLength;
    }
  }

  /** A number, cut back to its last whole form when the input ends inside it ("1." → 1, "-" → nothing). */
  private number(): Completed | undefined {
    const rest = this.input.slice(this.at);
    const soFar = NUMBER_SO_FAR.exec(rest)?.[0] ?? "";
    this.at += soFar.length;
    const whole = WHOLE_NUMBER.exec(soFar)?.[0];
    if (!this.ended) return whole === soFar ? { text: soFar, cut: false } : this.fail();
    return whole ? { text: whole, cut: true } : undefined;
  }

  /** true, false or null — finished when the input ends inside one. */
  private literal(): Completed {
    const rest = this.input.slice(this.at);
    for (const literal of LITERALS) {
      if (rest.startsWith(literal)) {
        this.at += literal.length;
        return { text: literal, cut: false };
      }
      if (literal.startsWith(rest)) {
        this.at = this.input.length;
        return { text: literal, cut: true };
      }
    }
    return this.fail();
  }

  private fail(): never {
    throw new NotJson();
  }
}

/** The JSON text so far, completed as described above (throws NotJson when it is not the start of a JSON value). */
export function completeJsonPrefix(text: string): string {
  return new PrefixCompleter(text).whole();
}

/** The value a partial JSON text has reached, or undefined (nothing yet, not JSON, or a prototype key refused). */
export function parsePartialJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return secureJsonParse(text);
  } catch {
    try {
      return secureJsonParse(completeJsonPrefix(text));
    } catch {
      return undefined;
    }
  }
}
