"use client";
// One message: the person's bubble, or the assistant's parts in order (text, and later hints and tool rows).
import { memo, type ReactNode, useState } from "react";
import { textOfParts } from "@/lib/agent/search-text";
import type {
  ChatMessage,
  ChatMessagePart,
  CompressionData,
  HintData,
  ResumeData,
  RetryData,
  SteerData,
} from "@/lib/chat-message";
import { useUiStore } from "@/lib/stores/ui-store";
import { MessageAttachments } from "./attachment-chips";
import { BranchSwitcher } from "./branch-switcher";
import { CompressionChip } from "./compression-chip";
import { EditMessage } from "./edit-message";
import { HintChip } from "./hint-chip";
import { Markdown } from "./markdown";
import { MessageActions, type ReplyActions } from "./message-actions";
import { usePersonMessageActions } from "./person-message-context";
import { ResumedNote } from "./resumed-note";
import { RetryNotice } from "./retry-notice";
import { ApprovalCard } from "./approval-card";
import { RunningToolCall } from "./running-tool-call";
import { ToolRow } from "./tool-row";
import type { ToolCallView } from "./tool-summary";

/** `live`: the last part of a reply that is still streaming; `waiting`: the reply is still running (stored or followed). */
function PartView({
  part,
  contextWindow,
  live,
  waiting = false,
}: {
  part: ChatMessagePart;
  contextWindow?: number;
  live: boolean;
  waiting?: boolean;
}) {
  const showHints = useUiStore((s) => s.showHints);
  if (part.type === "text") return <Markdown text={part.text} />;
  if (part.type === "data-hint") {
    const data = part.data as HintData | undefined;
    return showHints && data && typeof data.text === "string" ? (
      <HintChip data={data} contextWindow={contextWindow} />
    ) : null;
  }
  if (part.type === "data-steer") return <SteerBubble data={part.data as SteerData | undefined} />;
  if (part.type === "data-compression") {
    const data = part.data as CompressionData | undefined;
    return data && typeof data.tokensBefore === "number" ? <CompressionChip data={data} /> : null;
  }
  if (part.type === "data-resumed") {
    const data = part.data as ResumeData | undefined;
    return data && typeof data.at === "string" ? <ResumedNote data={data} /> : null;
  }
  if (part.type === "data-retry") {
    // Streamed, never stored: shown only while nothing has come after it.
    const data = part.data as RetryData | undefined;
    return live && data && typeof data.delayMs === "number" ? <RetryNotice key={data.attempt} retry={data} /> : null;
  }
  if (part.type.startsWith("tool-")) {
    const p = part as unknown as Omit<ToolCallView, "toolName"> & { toolCallId?: string };
    // A call that waits for the person's approval (lib/chat/approvals.ts), while its reply waits.
    if (p.state === "approval-requested" && waiting && p.toolCallId) {
      return <ApprovalCard toolName={part.type.slice("tool-".length)} toolCallId={p.toolCallId} input={p.input} />;
    }
    const toolName = part.type.slice("tool-".length);
    // A running MCP call can be cancelled alone (it may take minutes); the reply goes on without its result.
    if (p.state === "input-available" && waiting && p.toolCallId && toolName.startsWith("mcp__")) {
      return (
        <div>
          <ToolRow call={{ ...p, toolName }} />
          <RunningToolCall key={p.toolCallId} toolCallId={p.toolCallId} />
        </div>
      );
    }
    return <ToolRow call={{ ...p, toolName }} />;
  }
  return null;
}

/** A message the person sent while the reply ran (a steer): their bubble, where in the reply the agent read it. */
function SteerBubble({ data }: { data: SteerData | undefined }) {
  if (!data || !Array.isArray(data.parts)) return null;
  const parts = data.parts as ChatMessagePart[];
  return (
    <div className="flex flex-col items-end gap-1">
      <MessageAttachments parts={parts} />
      <div
        data-testid="message-steer"
        data-message-id={data.messageId}
        className="max-w-[85%] rounded-2xl rounded-br-md bg-chip px-4 py-2.5 whitespace-pre-wrap break-words"
      >
        <span className="sr-only">You, during the reply: </span>
        {textOfParts(parts, "\n\n")}
      </div>
      <span className="text-[11px] text-faint">Sent during the reply · read after the step before it</span>
    </div>
  );
}

/** The message's buttons, with ‹ n/N › before them in one row where the message has versions (most have none: then
 * no row of their own, which keeps the DOM of a long transcript small). */
function WithVersions({ switcher, children }: { switcher: ReactNode; children: ReactNode }) {
  if (!switcher) return children;
  return (
    <div className="flex items-center gap-1">
      {switcher}
      {children}
    </div>
  );
}

/** A person's message: the bubble (or its editor), Copy and Edit, and ‹ n/N › where it has alternatives. */
function PersonMessage({ message }: { message: ChatMessage }) {
  const [editing, setEditing] = useState(false);
  const person = usePersonMessageActions();
  const text = personText(message);
  const point = person?.branches.get(message.id);
  const onEdit = person && !person.busy ? () => setEditing(true) : undefined;
  return (
    <div className="flex flex-col items-end gap-1">
      <MessageAttachments parts={message.parts} />
      {editing && person ? (
        <EditMessage
          initial={text}
          onCancel={() => setEditing(false)}
          onSave={(next) => {
            setEditing(false);
            person.onEdit(message.id, next);
          }}
        />
      ) : (
        <div
          data-testid="message-user"
          data-message-id={message.id}
          className="max-w-[85%] rounded-2xl rounded-br-md bg-chip px-4 py-2.5 whitespace-pre-wrap break-words"
        >
          {text}
        </div>
      )}
      <WithVersions
        switcher={point && person && <BranchSwitcher point={point} busy={person.busy} onSwitch={person.onSwitch} />}
      >
        {!editing && <MessageActions text={text} who="your" align="end" actions={onEdit ? { onEdit } : undefined} />}
      </WithVersions>
    </div>
  );
}

/** A person's text parts (their files are shown apart, above it). */
const personText = (message: ChatMessage): string => textOfParts(message.parts, "\n\n");

/** What Copy takes from a reply: its text parts (not hints or tool rows). */
function replyText(message: ChatMessage): string {
  return message.parts
    .map((p) => (p.type === "text" ? p.text.trim() : ""))
    .filter(Boolean)
    .join("\n\n");
}

/** `actions`: the last reply's Regenerate / Continue (only when no reply is being written). */
export const MessageView = memo(function MessageView({
  message,
  streaming,
  contextWindow,
  actions,
}: {
  message: ChatMessage;
  streaming: boolean;
  contextWindow?: number;
  actions?: ReplyActions;
}) {
  if (message.role === "user") return <PersonMessage message={message} />;
  return <ReplyMessage message={message} streaming={streaming} contextWindow={contextWindow} actions={actions} />;
});

/** A reply: its parts, whether it ended early, and Copy, Regenerate, Continue and ‹ n/N › (its regenerated versions). */
function ReplyMessage({
  message,
  streaming,
  contextWindow,
  actions,
}: {
  message: ChatMessage;
  streaming: boolean;
  contextWindow?: number;
  actions?: ReplyActions;
}) {
  const person = usePersonMessageActions();
  const point = person?.branches.get(message.id);
  const status = message.metadata?.status;
  const hasText = message.parts.some((p) => p.type === "text" && p.text.length > 0);
  return (
    <div
      data-testid="message-assistant"
      data-message-id={message.id}
      data-status={streaming ? "streaming" : (status ?? "complete")}
      className="flex flex-col gap-2"
    >
      {message.parts.map((part, i) => (
        <PartView
          key={i}
          part={part}
          contextWindow={contextWindow}
          live={streaming && i === message.parts.length - 1}
          waiting={streaming || status === "streaming"}
        />
      ))}
      {streaming && !hasText && (
        <div data-testid="thinking" className="flex gap-1 py-2" role="status" aria-label="Thinking">
          {[0, 1, 2].map((i) => (
            <span
              key={i}
              className="size-1.5 animate-pulse rounded-full bg-faint"
              style={{ animationDelay: `${i * 150}ms` }}
            />
          ))}
        </div>
      )}
      {!streaming && status === "incomplete" && (
        <div data-testid="message-incomplete" className="text-xs text-muted">
          {message.metadata?.error && message.metadata.error !== "Stopped."
            ? message.metadata.error
            : "Stopped — this reply is incomplete."}
        </div>
      )}
      {!streaming && (
        <WithVersions
          switcher={point && person && <BranchSwitcher point={point} busy={person.busy} onSwitch={person.onSwitch} />}
        >
          <MessageActions text={replyText(message)} who="the reply's" actions={actions} />
        </WithVersions>
      )}
    </div>
  );
}
