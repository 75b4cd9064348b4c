// Folds the UI message chunks of one reply into the assistant message, exactly as the client does, so the server
// can persist what the person saw (also when the reply stops half way).
import type { ChatChunk, ChatMessage, ChatMessagePart } from "../chat-message.ts";

type Chunk = ChatChunk;
type MutablePart = ChatMessagePart & Record<string, unknown>;

export class AssistantMessageBuilder {
  readonly message: ChatMessage;
  private readonly textParts = new Map<string, MutablePart>();
  private readonly reasoningParts = new Map<string, MutablePart>();
  private readonly toolParts = new Map<string, MutablePart>();

  /** `now` stamps each tool result with the time it was produced (`resultAt`), which timestamps show the model. */
  constructor(
    id: string,
    metadata: ChatMessage["metadata"] = {},
    private readonly now: () => Date = () => new Date(),
  ) {
    this.message = { id, role: "assistant", parts: [], metadata };
  }

  /**
   * Starts from a reply stored earlier (Continue, a resume): its parts are kept; what follows is appended. A call that
   * waits for the person's answer stays open, so that the answer settles it.
   */
  seed(parts: readonly ChatMessagePart[]): void {
    for (const part of parts) {
      const kept = this.push(structuredClone(part) as Record<string, unknown>);
      if (kept.state === "approval-requested" && typeof kept.toolCallId === "string")
        this.toolParts.set(kept.toolCallId, kept);
    }
  }

  private push(part: Record<string, unknown>): MutablePart {
    const p = part as MutablePart;
    this.message.parts.push(p);
    return p;
  }

  apply(chunk: Chunk): void {
    switch (chunk.type) {
      case "start-step":
        this.push({ type: "step-start" });
        break;
      case "text-start":
        this.textParts.set(chunk.id, this.push({ type: "text", text: "", state: "streaming" }));
        break;
      case "text-delta": {
        const part = this.textParts.get(chunk.id) ?? this.push({ type: "text", text: "", state: "streaming" });
        this.textParts.set(chunk.id, part);
        part.text = `${part.text as string}${chunk.delta}`;
        break;
      }
      case "text-end": {
        const part = this.textParts.get(chunk.id);
        if (part) part.state = "done";
        break;
      }
      case "reasoning-start":
        this.reasoningParts.set(chunk.id, this.push({ type: "reasoning", text: "", state: "streaming" }));
        break;
      case "reasoning-delta": {
        const part = this.reasoningParts.get(chunk.id);
        if (part) part.text = `${part.text as string}${chunk.delta}`;
        break;
      }
      case "reasoning-end": {
        const part = this.reasoningParts.get(chunk.id);
        if (part) part.state = "done";
        break;
      }
      default:
        if (chunk.type.startsWith("tool-")) this.applyTool(chunk);
        else if (chunk.type.startsWith("data-")) {
          const data = chunk as { type: string; id?: string; data: unknown; transient?: boolean };
          if (!data.transient) this.upsertData(data);
        }
    }
  }

  /** A tool call's chunk: its part goes from input to approval to output. */
  private applyTool(chunk: Chunk): void {
    switch (chunk.type) {
      case "tool-input-start":
        this.toolParts.set(
          chunk.toolCallId,
          this.push({
            type: `tool-${chunk.toolName}`,
            toolCallId: chunk.toolCallId,
            state: "input-streaming",
            input: undefined,
          }),
        );
        break;
      case "tool-input-available":
      case "tool-input-error": {
        const part =
          this.toolParts.get(chunk.toolCallId) ??
          this.push({ type: `tool-${chunk.toolName}`, toolCallId: chunk.toolCallId, state: "input-available" });
        this.toolParts.set(chunk.toolCallId, part);
        part.input = chunk.input;
        if (chunk.type === "tool-input-error") {
          part.state = "output-error";
          part.errorText = chunk.errorText;
          part.resultAt = this.now().toISOString();
        } else {
          part.state = "input-available";
        }
        break;
      }
      case "tool-approval-request": {
        const part = this.toolParts.get(chunk.toolCallId);
        if (part) Object.assign(part, { state: "approval-requested", approval: { id: chunk.approvalId } });
        break;
      }
      case "tool-approval-response": {
        const part = [...this.toolParts.values()].find(
          (p) => (p.approval as { id?: string } | undefined)?.id === chunk.approvalId,
        );
        if (part) {
          const approval = {
            id: chunk.approvalId,
            approved: chunk.approved,
            ...(chunk.reason ? { reason: chunk.reason } : {}),
          };
          Object.assign(part, { state: "approval-responded", approval });
        }
        break;
      }
      case "tool-output-denied": {
        const part = this.toolParts.get(chunk.toolCallId);
        if (part) part.state = "output-denied";
        break;
      }
      case "tool-output-available": {
        const part = this.toolParts.get(chunk.toolCallId);
        if (part)
          Object.assign(part, { state: "output-available", output: chunk.output, resultAt: this.now().toISOString() });
        break;
      }
      case "tool-output-error": {
        const part = this.toolParts.get(chunk.toolCallId);
        if (part)
          Object.assign(part, {
            state: "output-error",
            errorText: chunk.errorText,
            resultAt: this.now().toISOString(),
          });
        break;
      }
    }
  }

  private upsertData(chunk: { type: string; id?: string; data: unknown }): void {
    const existing =
      chunk.id !== undefined
        ? this.message.parts.find((p) => p.type === chunk.type && (p as { id?: string }).id === chunk.id)
        : undefined;
    if (existing) (existing as MutablePart).data = chunk.data;
    else this.push({ type: chunk.type, ...(chunk.id !== undefined ? { id: chunk.id } : {}), data: chunk.data });
  }

  /** The message as persisted: streaming markers closed. */
  snapshot(): ChatMessage {
    return structuredClone({
      ...this.message,
      parts: this.message.parts.map((p) =>
        (p.type === "text" || p.type === "reasoning") && "state" in p ? { ...p, state: "done" as const } : p,
      ),
    });
  }
}
