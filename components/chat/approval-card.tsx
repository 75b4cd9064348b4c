"use client";
// A tool call that waits for the person: the tool, its arguments and Approve / Deny / Always allow this tool. The
// answer goes to POST /api/conversations/:id/approvals/:toolCallId, so it works from any tab or instance; the reply
// (followed live) goes on from there. A subagent's call is answered at the child's id: given as `conversationId`
// (the parent's side panel and AgentSpawn row), or by ApprovalTarget around the child's transcript.
import { useParams } from "next/navigation";
import { createContext, useContext, useState } from "react";
import { useWorkspacesStore } from "@/lib/stores/workspaces-store";
import { parseMcpToolName, toolInWords } from "@/lib/tool-name";
import { conversationIdOf } from "./conversation-id";

/** The conversation whose calls the cards inside answer (a subagent's transcript); none: the page's conversation. */
const ApprovalTargetContext = createContext<string | null>(null);
export const ApprovalTarget = ApprovalTargetContext.Provider;

export function ApprovalCard({
  toolName,
  toolCallId,
  input,
  conversationId,
}: {
  toolName: string;
  toolCallId: string;
  input: unknown;
  conversationId?: string;
}) {
  const params = useParams();
  const target = useContext(ApprovalTargetContext);
  const [reason, setReason] = useState("");
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mcp = parseMcpToolName(toolName);
  // "Always allow" changes the workspace's server for everyone: a member of a shared workspace may not (nor the server).
  const readOnly = useWorkspacesStore((s) => s.workspaces.find((w) => w.id === s.currentId)?.editable === false);
  const answer = async (body: { approved: boolean; reason?: string; remember?: "tool" }) => {
    const id = conversationId ?? target ?? conversationIdOf(params as Record<string, string | string[]> | null);
    if (!id) return setError("This conversation has no id yet; reload the page.");
    setError(null);
    setSent(body.approved ? "Approved" : "Denied");
    const response = await fetch(
      `/api/conversations/${encodeURIComponent(id)}/approvals/${encodeURIComponent(toolCallId)}`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      },
    ).catch(() => null);
    if (!response?.ok) {
      const message = response
        ? ((await response.json().catch(() => null)) as { error?: { message?: string } } | null)?.error?.message
        : undefined;
      setSent(null);
      setError(message ?? "The answer could not be sent; try again.");
    }
  };
  return (
    <div
      data-testid="approval-card"
      data-tool={toolName}
      className="w-full max-w-xl space-y-2 rounded-lg border border-accent/40 bg-elevated p-3 text-sm"
    >
      <div className="text-fg">
        <span className="font-medium">Allow this tool call?</span>{" "}
        <span data-testid="approval-tool" title={toolName} className="text-xs text-muted">
          {toolInWords(toolName)}
        </span>
      </div>
      <pre
        data-testid="approval-input"
        className="max-h-48 overflow-auto whitespace-pre-wrap rounded bg-code p-2 font-mono text-xs text-muted"
      >
        {JSON.stringify(input ?? {}, null, 2)}
      </pre>
      {sent ? (
        <div data-testid="approval-sent" role="status" className="text-xs text-muted">
          {sent} — the reply goes on.
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            data-testid="approval-approve"
            onClick={() => answer({ approved: true })}
            className="rounded-md bg-accent px-2.5 py-1 text-xs font-medium text-accent-fg"
          >
            Approve
          </button>
          {mcp && !readOnly && (
            <button
              type="button"
              data-testid="approval-always"
              onClick={() => answer({ approved: true, remember: "tool" })}
              className="rounded-md border border-border px-2.5 py-1 text-xs text-fg"
            >
              Always allow this tool
            </button>
          )}
          <input
            data-testid="approval-reason"
            aria-label="Reason for denying"
            placeholder="Reason (optional)"
            value={reason}
            maxLength={1000}
            onChange={(e) => setReason(e.target.value)}
            className="min-w-0 flex-1 rounded-md border border-border bg-bg px-2 py-1 text-xs"
          />
          <button
            type="button"
            data-testid="approval-deny"
            onClick={() => answer({ approved: false, ...(reason.trim() ? { reason: reason.trim() } : {}) })}
            className="rounded-md border border-danger/40 px-2.5 py-1 text-xs text-danger"
          >
            Deny
          </button>
        </div>
      )}
      {error && (
        <div data-testid="approval-error" role="alert" className="text-xs text-danger">
          {error}
        </div>
      )}
    </div>
  );
}
