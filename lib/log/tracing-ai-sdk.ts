// The AI SDK's OpenTelemetry integration (@ai-sdk/otel: a span per model call with the GenAI attributes, a span per
// tool call), keeping what people wrote out of the spans unless HINTLINE_TRACE_CONTENT=1: every call's inputs and
// outputs (messages, system prompt, tool arguments and results) go unrecorded, and a failed tool call's error is told
// by its type alone (a tool's error quotes its arguments). Each tool span also says how the call ended.
import { OpenTelemetry, type OpenTelemetryOptions } from "@ai-sdk/otel";
import { trace } from "@opentelemetry/api";

type StartEvent = Parameters<OpenTelemetry["onStart"]>[0];
type ToolEndEvent = Parameters<OpenTelemetry["onToolExecutionEnd"]>[0];
type ExecuteTool<T> = { callId: string; toolCallId: string; execute: () => PromiseLike<T> };

/** A tool's error without its words: an error of the same name whose message is that name. */
function typeOnly(error: unknown): Error {
  const name = error instanceof Error ? error.name : "Error";
  const bare = new Error(name);
  bare.name = name;
  bare.stack = undefined;
  return bare;
}

export class HintlineTelemetry extends OpenTelemetry {
  private readonly content: boolean;

  constructor(options: OpenTelemetryOptions & { content: boolean }) {
    const { content, ...rest } = options;
    super(rest);
    this.content = content;
  }

  // Whether inputs and outputs are recorded is set once per call, at its start, for all its spans.
  override onStart(event: StartEvent): void {
    super.onStart({ ...event, recordInputs: this.content, recordOutputs: this.content });
  }

  override onToolExecutionEnd(event: ToolEndEvent): void {
    const { toolOutput } = event;
    const told = this.content || toolOutput.type !== "tool-error";
    super.onToolExecutionEnd(
      told ? event : { ...event, toolOutput: { ...toolOutput, error: typeOnly(toolOutput.error) } },
    );
  }

  // The tool runs inside its span (the integration makes it the active one): the span is marked with the outcome.
  override executeTool<T>(options: ExecuteTool<T>): PromiseLike<T> {
    return super.executeTool<T>({
      ...options,
      execute: async () => {
        const span = trace.getActiveSpan();
        try {
          const output = await options.execute();
          span?.setAttribute("hintline.tool.outcome", "ok");
          return output;
        } catch (error) {
          span?.setAttributes({
            "hintline.tool.outcome": "error",
            "error.type": error instanceof Error ? error.name : "Error",
          });
          throw error;
        }
      },
    });
  }
}
