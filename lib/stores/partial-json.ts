// A tool's partial JSON input as the AI SDK reads it: repaired (its fixJson: close what is open, drop a dangling key
// or half a literal) so a streaming tool row shows the input so far, then parsed refusing prototype keys. Ported
// from `ai` 7 (Apache-2.0) for the browser, which imports none of `ai`'s runtime; lib/stores/ui-message-stream.test.ts
// holds the two to the same results. Pure.
import { secureJsonParse } from "./secure-json";

type State =
  | "ROOT"
  | "FINISH"
  | "STRING"
  | "STRING_ESCAPE"
  | "STRING_UNICODE"
  | "LITERAL"
  | "NUMBER"
  | "OBJECT_START"
  | "OBJECT_KEY"
  | "OBJECT_AFTER_KEY"
  | "OBJECT_BEFORE_VALUE"
  | "OBJECT_AFTER_VALUE"
  | "OBJECT_AFTER_COMMA"
  | "ARRAY_START"
  | "ARRAY_AFTER_VALUE"
  | "ARRAY_AFTER_COMMA";

const LITERALS = ["true", "false", "null"] as const;
const isDigit = (char: string) => char >= "0" && char <= "9";
const isHex = (char: string) => isDigit(char) || (char >= "A" && char <= "F") || (char >= "a" && char <= "f");

/** The repair's state machine, one character at a time (the AI SDK's fixJson, state for state). */
class JsonRepair {
  private readonly stack: State[] = ["ROOT"];
  private lastValid = -1;
  private literalStart = 0;
  private unicodeDigits = 0;

  constructor(private readonly input: string) {}

  private top(): State | undefined {
    return this.stack[this.stack.length - 1];
  }

  private swap(...states: State[]): void {
    this.stack.pop();
    this.stack.push(...states);
  }

  private close(i: number): void {
    this.lastValid = i;
    this.stack.pop();
  }

  private valueStart(char: string, i: number, after: State): void {
    if (char === '"') this.swap(after, "STRING");
    else if (char === "f" || char === "t" || char === "n") {
      this.literalStart = i;
      this.swap(after, "LITERAL");
    } else if (char === "-") {
      this.swap(after, "NUMBER");
      return;
    } else if (isDigit(char)) this.swap(after, "NUMBER");
    else if (char === "{") this.swap(after, "OBJECT_START");
    else if (char === "[") this.swap(after, "ARRAY_START");
    else return;
    this.lastValid = i;
  }

  private afterValue(char: string, i: number, container: "OBJECT" | "ARRAY"): void {
    if (char === ",") this.swap(`${container}_AFTER_COMMA`);
    else if (char === (container === "OBJECT" ? "}" : "]")) this.close(i);
  }

  /** A number or literal ended at `char`: the container it sits in reads that char. */
  private afterScalar(char: string, i: number): void {
    this.stack.pop();
    if (this.top() === "ARRAY_AFTER_VALUE") this.afterValue(char, i, "ARRAY");
    else if (this.top() === "OBJECT_AFTER_VALUE") this.afterValue(char, i, "OBJECT");
  }

  read(char: string, i: number): void {
    switch (this.top()) {
      case "ROOT":
        this.valueStart(char, i, "FINISH");
        return;
      case "OBJECT_START":
        if (char === '"') this.swap("OBJECT_KEY");
        else if (char === "}") this.close(i);
        return;
      case "OBJECT_AFTER_COMMA":
        if (char === '"') this.swap("OBJECT_KEY");
        return;
      case "OBJECT_KEY":
        if (char === '"') this.swap("OBJECT_AFTER_KEY");
        return;
      case "OBJECT_AFTER_KEY":
        if (char === ":") this.swap("OBJECT_BEFORE_VALUE");
        return;
      case "OBJECT_BEFORE_VALUE":
        this.valueStart(char, i, "OBJECT_AFTER_VALUE");
        return;
      case "OBJECT_AFTER_VALUE":
        this.afterValue(char, i, "OBJECT");
        return;
      case "STRING":
        if (char === '"') this.stack.pop();
        if (char === "\\") this.stack.push("STRING_ESCAPE");
        else this.lastValid = i;
        return;
      case "ARRAY_START":
        if (char === "]") this.close(i);
        else this.valueStart(char, i, "ARRAY_AFTER_VALUE");
        return;
      case "ARRAY_AFTER_VALUE":
        if (char === ",") this.swap("ARRAY_AFTER_COMMA");
        else if (char === "]") this.close(i);
        else this.lastValid = i;
        return;
      case "ARRAY_AFTER_COMMA":
        this.valueStart(char, i, "ARRAY_AFTER_VALUE");
        return;
      default:
        this.readInScalar(char, i);
        return;
    }
  }

  private readInScalar(char: string, i: number): void {
    switch (this.top()) {
      case "STRING_ESCAPE":
        this.stack.pop();
        if (char === "u") {
          this.unicodeDigits = 0;
          this.stack.push("STRING_UNICODE");
        } else this.lastValid = i;
        return;
      case "STRING_UNICODE":
        if (isHex(char) && ++this.unicodeDigits === 4) this.close(i);
        return;
      case "NUMBER":
        if (isDigit(char)) this.lastValid = i;
        else if (char === "e" || char === "E" || char === "-" || char === ".") return;
        else if (char === "," || char === "}" || char === "]") this.afterScalar(char, i);
        else this.stack.pop();
        return;
      case "LITERAL": {
        const partial = this.input.substring(this.literalStart, i + 1);
        if (LITERALS.some((literal) => literal.startsWith(partial))) this.lastValid = i;
        else this.afterScalar(char, i);
        return;
      }
    }
  }

  /** The valid prefix with everything still open closed. */
  result(): string {
    let result = this.input.slice(0, this.lastValid + 1);
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const state = this.stack[i]!;
      if (state === "STRING") result += '"';
      else if (state.startsWith("OBJECT_")) result += "}";
      else if (state.startsWith("ARRAY_")) result += "]";
      else if (state === "LITERAL") {
        const partial = this.input.substring(this.literalStart);
        const literal = LITERALS.find((l) => l.startsWith(partial));
        if (literal) result += literal.slice(partial.length);
      }
    }
    return result;
  }
}

/** Partial JSON made parseable: the longest valid prefix with its open strings, objects and arrays closed. */
export function fixJson(input: string): string {
  const repair = new JsonRepair(input);
  for (let i = 0; i < input.length; i++) repair.read(input[i]!, i);
  return repair.result();
}

/** A tool's input so far: parsed as it is, else repaired; undefined when neither parses. */
export function parsePartialJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  for (const candidate of [text, fixJson(text)]) {
    try {
      return secureJsonParse(candidate);
    } catch {
      // try the repaired text, then give up
    }
  }
  return undefined;
}
