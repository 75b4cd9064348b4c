"use client";
// A tool whose server changed its definition since the person approved it: its calls are blocked until they read the
// change (a line diff of the approved and the current definition) and accept it.
import { useId, useState } from "react";
import { lineDiff } from "@/lib/agent/mcp-drift";
import { apiFetch, failureText } from "@/lib/stores/api-client";

export type ToolChange = { approved: string; current: string };

const LINE_STYLE = { same: "text-muted", removed: "bg-danger/10 text-danger", added: "bg-accent/10 text-fg" } as const;
const MARK = { same: " ", removed: "−", added: "+" } as const;

export function McpToolChange({
  tool,
  change,
  acceptPath,
  onAccepted,
}: {
  tool: string;
  change: ToolChange;
  acceptPath: string;
  onAccepted: () => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const diffId = useId();
  const accept = async () => {
    setError(null);
    try {
      await apiFetch(acceptPath, { method: "POST" });
      await onAccepted();
    } catch (e) {
      setError(failureText(e));
    }
  };
  return (
    <div data-testid="mcp-tool-change" className="mt-0.5 font-sans">
      <span className="text-danger">Changed by its server since you approved it: blocked until you review it.</span>{" "}
      <button
        type="button"
        data-testid="mcp-tool-review"
        aria-expanded={open}
        aria-controls={diffId}
        className="underline"
        onClick={() => setOpen(!open)}
      >
        {open ? "Hide the change" : "Review the change"}
      </button>
      {open && (
        <div id={diffId} className="mt-1 space-y-1">
          <pre
            role="region"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
            tabIndex={0}
            data-testid="mcp-tool-diff"
            aria-label={`What changed in ${tool}`}
            className="max-h-64 overflow-auto rounded-md border border-border bg-elevated p-2 font-mono text-xs outline-none focus-visible:ring-2 focus-visible:ring-accent/60"
          >
            {lineDiff(change.approved, change.current).map((line, i) => (
              <div key={i} data-kind={line.kind} className={LINE_STYLE[line.kind]}>
                {MARK[line.kind]} {line.text}
              </div>
            ))}
          </pre>
          <button
            type="button"
            data-testid="mcp-tool-accept"
            className="rounded-md bg-accent px-2 py-1 text-xs font-medium text-accent-fg"
            onClick={() => void accept()}
          >
            Accept the change
          </button>
          {error && (
            <p role="alert" className="text-xs text-danger">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
