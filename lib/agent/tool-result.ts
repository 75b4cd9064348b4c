// Pure: what every tool's result shares — the size cap, the call counter, the result's data and the detailed error.
import { harnessOptions } from "../harness-options.ts";
import { scrub } from "../secrets.ts";
import { isDiskFull } from "./disk-full.ts";
import type { OutputToolName, ToolOutput, ToolOutputFields } from "../tool-output.ts";

/** No tool result may be longer than this (about 2k tokens): a result must fit any model's window with room to spare. */
export const TOOL_RESULT_MAX_CHARS = 8_000;

/** Cuts a text to `max` characters, saying so at the end. */
export function capText(text: string, max = TOOL_RESULT_MAX_CHARS): string {
  if (text.length <= max) return text;
  const note = `\n… [cut: ${text.length - max} more characters not shown]`;
  return text.slice(0, Math.max(0, max - note.length)) + note;
}

export function callCountLine(toolName: string, count: number): string {
  return `(Tool call #${count} for '${toolName}' in this conversation.)`;
}

// The one parser of the line above: the repeat counter compares results without it, the demo model reads it.
const CALL_COUNT_AT_END = /\n\(Tool call #(\d+) for '[^'\n]*' in this conversation\.\)$/;

/** A tool result without its call counter line. */
export function withoutCallCount(text: string): string {
  return text.replace(CALL_COUNT_AT_END, "");
}

/** The call number a tool result ends with, or undefined when it has no counter. */
export function callCountOf(text: string): number | undefined {
  const match = CALL_COUNT_AT_END.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** A tool's result: the text (bounded), then the call counter. */
export function withCallCount(text: string, toolName: string, count: number): string {
  if (!harnessOptions().toolCallCounter) return capText(text);
  return `${capText(text)}\n${callCountLine(toolName, count)}`;
}

/** A built-in tool's result: its fields, and its text as the model reads it (bounded, then the call counter). */
export function toolOutput<N extends OutputToolName>(
  toolName: N,
  call: number,
  text: string,
  fields: ToolOutputFields[N],
): ToolOutput<N> {
  // Spread into a generic type TypeScript cannot check: the cast only says what the object is.
  return { tool: toolName, ...fields, text: withCallCount(text, toolName, call) } as ToolOutput<N>;
}

/**
 * What a built-in tool's toModelOutput gives the model: the result's text, as a result that was text gave it. (A tool
 * sets toModelOutput after execute, which TypeScript must read first to know the output's type.)
 */
export const textForModel = (output: { text: string }) => ({ type: "text" as const, value: output.text });

const ARGUMENTS_SHOWN = 1_000;

function argumentsText(args: unknown): string {
  const text = typeof args === "string" ? args : (JSON.stringify(args) ?? String(args));
  return text.length > ARGUMENTS_SHOWN ? `${text.slice(0, ARGUMENTS_SHOWN)}… (${text.length} characters)` : text;
}

/**
 * A detailed tool error for the model: its text (AgentScope's where it has one), the error type, the arguments it
 * sent, what to do instead, and the call counter. The AI SDK hands the model `error.toString()`.
 */
export class ToolError extends Error {
  constructor({
    type,
    text,
    args,
    advice,
    toolName,
    call,
  }: { type: string; text: string; args: unknown; advice: string; toolName: string; call: number }) {
    const lines = [text];
    // The evaluation's "plain errors" variant (lib/harness-options.ts) keeps only the error's own text.
    if (harnessOptions().toolErrorDetails) {
      if (!text.startsWith(`${type}:`)) lines.push(`Error type: ${type}`);
      lines.push(`Arguments sent: ${argumentsText(args)}`, `What to do: ${advice}`);
    }
    super(withCallCount(lines.join("\n"), toolName, call));
    this.name = type;
  }

  override toString(): string {
    return this.message;
  }
}

/** The type a tool's failure reaches the model as when it is no detailed error of the tool's own (a bug, storage). */
export const TOOL_EXECUTION_ERROR = "ToolExecutionError";
const DETAIL_CHARS = 400;

/**
 * What went wrong, in the error's own words, for the model: its class and its message on one line — without the lines
 * of a code frame or a source location some errors carry (Prisma's), secrets scrubbed, at most DETAIL_CHARS. Never
 * the stack.
 */
export function errorDetail(error: unknown): string {
  if (isDiskFull(error)) return "the server's disk is full, so nothing could be saved";
  const e = error instanceof Error ? error : undefined;
  const message = e ? e.message : typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
  const [first = "", ...rest] = message
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  // After its first line, a code frame's numbered lines and pointer, and a file:line:column location, are not the reason.
  const lines = [
    first,
    ...rest.filter((line) => !/^(?:→\s*)?\d+\s/.test(line) && !/^\^+$/.test(line) && !/:\d+:\d+\)?$/.test(line)),
  ].filter(Boolean);
  const code = (e as { code?: unknown } | undefined)?.code;
  const name = e?.name && e.name !== "Error" ? e.name : "";
  const head = [name, typeof code === "string" && code ? `(${code})` : ""].filter(Boolean).join(" ");
  const text = scrub([head ? `${head}:` : "", lines.join(" ") || "no message"].filter(Boolean).join(" "));
  return text.length > DETAIL_CHARS ? `${text.slice(0, DETAIL_CHARS - 1)}…` : text;
}

/**
 * A failure of a tool that is no ToolError of its own (a plain Error, a storage error, a bug) as a detailed tool error:
 * a type, the error's words, the arguments, what to do, and the call counter — never the bare `Error: …` the AI SDK
 * would hand on. `writes`: the tool changes state, so the call may or may not have taken effect.
 */
export function toolExecutionError({
  error,
  toolName,
  args,
  call,
  writes,
}: {
  error: unknown;
  toolName: string;
  args: unknown;
  call: number;
  writes: boolean;
}): ToolError {
  return new ToolError({
    type: TOOL_EXECUTION_ERROR,
    text: `${TOOL_EXECUTION_ERROR}: ${toolName} failed inside Hintline: ${errorDetail(error)}`,
    args,
    advice: writes
      ? `This is a fault on the server's side, not in your arguments, and the call may or may not have taken effect: check the state (TaskList, PlanRead, MemorySearch) before calling ${toolName} again; if it fails again, go on without it and tell the person.`
      : `This is a fault on the server's side, not in your arguments: try once more; if it fails again, go on without ${toolName} and tell the person.`,
    toolName,
    call,
  });
}
