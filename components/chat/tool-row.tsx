"use client";
// A tool call in the transcript: a compact row of the same family as the hint chips, expandable to the exact
// input and output (a built-in tool's result as the text the model read, its data being what the summary shows).
import { useState } from "react";
import { useAgentsStore } from "@/lib/stores/agents-store";
import { toolOutputText } from "@/lib/tool-output";
import { agentKeyOf } from "../agents/agent-figures";
import { ApprovalCard } from "./approval-card";
import { BookmarkIcon, ChecklistIcon, FolderIcon } from "../ui/icons";
import { summarizeTool, type ToolCallView } from "./tool-summary";

export function ToolRow({ call }: { call: ToolCallView }) {
  const [open, setOpen] = useState(false);
  const failed = call.state === "output-error";
  const running = call.state === "input-streaming" || call.state === "input-available";
  // An AgentSpawn / AgentSend row opens its child's transcript (a child of this conversation, by the result's key).
  const agentKey = call.toolName.startsWith("Agent") ? agentKeyOf(call.toolName, call.output) : undefined;
  const childId = useAgentsStore((s) =>
    agentKey ? s.agents.find((a) => a.agentKey === agentKey)?.conversationId : undefined,
  );
  // While it waits for its child: the child's calls that wait for the person, answered here at the child's id.
  const waiting = useAgentsStore((s) =>
    running && call.toolCallId && call.toolName.startsWith("Agent")
      ? s.agents.find((a) => a.toolCallId === call.toolCallId && a.status === "running")
      : undefined,
  );
  const Icon = call.toolName.startsWith("Memory")
    ? BookmarkIcon
    : /^(Knowledge|Skill)/.test(call.toolName)
      ? FolderIcon
      : ChecklistIcon;
  return (
    <div data-testid="tool-row" data-tool={call.toolName} data-state={call.state} className="flex flex-col items-start">
      <div className="flex max-w-full items-center gap-1.5">
        <button
          type="button"
          aria-expanded={open}
          title={call.toolName}
          onClick={() => setOpen(!open)}
          className={`inline-flex max-w-full items-center gap-2 rounded-lg border px-2.5 py-1 text-xs transition ${
            failed ? "border-danger/30 bg-danger-bg text-danger" : "border-border bg-elevated text-muted hover:text-fg"
          }`}
        >
          <Icon width={12} height={12} />
          <span data-testid="tool-summary" className="truncate">
            {summarizeTool(call)}
          </span>
          {running && (
            <span className="size-1.5 animate-pulse rounded-full bg-accent" role="status" aria-label="running" />
          )}
        </button>
        {childId && (
          <button
            type="button"
            data-testid="tool-open-agent"
            aria-label={`Transcript of ${agentKey}`}
            onClick={() => useAgentsStore.getState().open(childId)}
            className="shrink-0 rounded-lg border border-border bg-elevated px-2 py-1 text-xs text-muted hover:text-fg"
          >
            Transcript
          </button>
        )}
      </div>
      {waiting?.approvals?.length ? (
        <div data-testid="tool-agent-approvals" className="mt-1.5 w-full space-y-1.5">
          <p className="text-xs text-muted">{waiting.agentKey} is waiting for your approval:</p>
          {waiting.approvals.map((a) => (
            <ApprovalCard
              key={`${a.conversationId}:${a.toolCallId}`}
              conversationId={a.conversationId}
              toolName={a.toolName}
              toolCallId={a.toolCallId}
              input={a.input}
            />
          ))}
        </div>
      ) : null}
      {open && (
        <div
          data-testid="tool-detail"
          className="mt-1.5 w-full space-y-1.5 rounded-lg border border-border bg-code p-2.5 font-mono text-xs"
        >
          <div>
            <div className="mb-0.5 text-faint">input</div>
            <pre className="overflow-x-auto whitespace-pre-wrap text-muted">
              {JSON.stringify(call.input ?? {}, null, 2)}
            </pre>
          </div>
          {(call.output !== undefined || call.errorText) && (
            <div>
              <div className="mb-0.5 text-faint">{failed ? "error" : "output"}</div>
              <pre className="overflow-x-auto whitespace-pre-wrap text-muted">
                {failed
                  ? call.errorText
                  : (toolOutputText(call.toolName, call.output) ?? JSON.stringify(call.output, null, 2))}
              </pre>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
