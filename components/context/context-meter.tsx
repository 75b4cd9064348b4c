"use client";
// The context meter: used / window with the buffer start and the compression trigger marked, coloured by zone; a
// click opens the breakdown and a "Compress now" button.
import { useEffect, useState } from "react";
import type { ChatMessage, ContextUsage } from "@/lib/chat-message";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { useTranscriptStore } from "@/lib/stores/transcript-store";
import { useUsageStore } from "@/lib/stores/usage-store";
import { cacheLabel, fixedPartOf, mcpToolsOf, meterLabel, pctOf, shortTokens, zoneOf } from "./meter-math";

type CompactResult =
  | { compressed: false; message: string }
  | { compressed: true; message: ChatMessage; contextUsage: ContextUsage };

const ZONE_COLOUR = { ok: "bg-accent", buffer: "bg-amber-500", trigger: "bg-danger" } as const;

function Bar({ usage, thin = false }: { usage: ContextUsage; thin?: boolean }) {
  const zone = zoneOf(usage);
  const fixed = fixedPartOf(usage);
  return (
    <div className={`relative w-full overflow-hidden rounded-full bg-chip ${thin ? "h-1" : "h-2"}`}>
      <div
        className="absolute inset-y-0 bg-amber-500/15"
        style={{
          left: pctOf(usage.bufferStartTokens, usage),
          width: `calc(${pctOf(usage.triggerTokens, usage)} - ${pctOf(usage.bufferStartTokens, usage)})`,
        }}
      />
      <div
        data-testid="meter-fill"
        data-zone={zone}
        className={`absolute inset-y-0 left-0 rounded-full transition-[width] duration-300 ${ZONE_COLOUR[zone]}`}
        style={{ width: pctOf(usage.inputTokens, usage) }}
      />
      {fixed && (
        // The fixed part's band: the start of the fill, darker (every call sends it before the conversation).
        <div
          data-testid="meter-fixed"
          data-tokens={fixed.tokens}
          title="Fixed part: the system prompt and the tool definitions"
          className="absolute inset-y-0 left-0 rounded-l-full bg-fg/35"
          style={{ width: pctOf(Math.min(fixed.tokens, usage.inputTokens), usage) }}
        />
      )}
      {!thin && (
        <>
          <div
            title="Warning buffer starts"
            className="absolute inset-y-0 w-px bg-amber-600/70"
            style={{ left: pctOf(usage.bufferStartTokens, usage) }}
          />
          <div
            title="Compression trigger"
            className="absolute inset-y-0 w-0.5 bg-danger/80"
            style={{ left: pctOf(usage.triggerTokens, usage) }}
          />
        </>
      )}
    </div>
  );
}

export function ContextMeter({ conversationId, initial }: { conversationId: string; initial: ContextUsage | null }) {
  const seed = useUsageStore((s) => s.seed);
  const usage = useUsageStore((s) => s.usage);
  const receive = useUsageStore((s) => s.receive);
  const addToTranscript = useTranscriptStore((s) => s.add);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => seed(conversationId, initial), [conversationId, initial, seed]);
  if (!usage) return null;
  const b = usage.breakdown;
  const cache = cacheLabel(usage.cache);
  const mcp = mcpToolsOf(usage);
  const fixed = fixedPartOf(usage);

  const compact = async () => {
    setBusy(true);
    try {
      const result = await apiFetch<CompactResult>(`/api/conversations/${conversationId}/compact`, { method: "POST" });
      if (result.compressed) {
        setNotice(null);
        addToTranscript(conversationId, result.message);
        receive(result.contextUsage);
      } else {
        setNotice(result.message);
      }
    } catch (error) {
      setNotice(failureText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      data-testid="context-meter"
      data-tokens={usage.inputTokens}
      data-zone={zoneOf(usage)}
      className="border-b border-border px-4 py-3"
    >
      <button
        type="button"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        className="w-full text-left"
        title="Context usage — click for details"
      >
        <div className="mb-1.5 flex items-baseline justify-between text-xs">
          <span className="font-semibold text-fg/80">Context</span>
          <span data-testid="meter-label" className="text-muted tabular-nums">
            {meterLabel(usage)}
          </span>
        </div>
        <Bar usage={usage} />
        {cache && (
          <div
            data-testid="meter-cache"
            className="mt-1 text-xs text-muted tabular-nums"
            title="Share of input tokens the provider served from its prompt cache: the last model call, and the whole conversation"
          >
            {cache}
          </div>
        )}
      </button>
      {open && (
        <div data-testid="meter-details" className="mt-2 space-y-1 text-xs text-muted">
          {b && (
            <dl className="grid grid-cols-2 gap-x-3 gap-y-0.5 tabular-nums">
              {(
                [
                  ["System prompt", b.system],
                  ["Tools", b.tools],
                  ["Summary", b.summary],
                  ["Messages", b.messages],
                  ["Hints", b.hints],
                ] as const
              ).map(([label, n]) => (
                <div key={label} className="contents">
                  <dt>{label}</dt>
                  <dd className="text-right">{n.toLocaleString()}</dd>
                </div>
              ))}
            </dl>
          )}
          {fixed && (
            <p data-testid="meter-fixed-part" className="tabular-nums">
              <span aria-hidden="true" className="mr-1 inline-block h-2 w-2 rounded-sm bg-fg/35 align-middle" />
              Fixed part (system prompt and tools): {fixed.tokens.toLocaleString()} tokens, {fixed.pct}% of the window,
              sent with every call.
            </p>
          )}
          {mcp && (
            <dl data-testid="meter-mcp-tools" className="grid grid-cols-2 gap-x-3 gap-y-0.5 pl-3 tabular-nums">
              {mcp.servers.map(([server, tokens]) => (
                <div key={server} className="contents">
                  <dt className="truncate">of which MCP {server}</dt>
                  <dd className="text-right">{tokens.toLocaleString()}</dd>
                </div>
              ))}
            </dl>
          )}
          {mcp?.warn && (
            <p data-testid="meter-tools-warning" className="text-danger">
              MCP tools take {Math.round(mcp.share * 100)}% of the window with every call. Turning off the servers you
              do not need in the workspace settings gives new conversations more room.
            </p>
          )}
          <p>
            Warning from {shortTokens(usage.bufferStartTokens)}, compression at {shortTokens(usage.triggerTokens)}{" "}
            tokens.
          </p>
          <button
            type="button"
            data-testid="compact-now"
            disabled={busy}
            onClick={() => void compact()}
            className="rounded-md border border-border px-2 py-1 text-fg hover:bg-chip disabled:opacity-50"
          >
            {busy ? "Compressing…" : "Compress now"}
          </button>
          {notice && <p role="status">{notice}</p>}
        </div>
      )}
    </div>
  );
}

/** On narrow screens the meter stays visible as a thin bar under the header. */
export function ThinMeter() {
  const usage = useUsageStore((s) => s.usage);
  if (!usage) return null;
  return (
    <div data-testid="thin-meter" className="xl:hidden" title={meterLabel(usage)}>
      <Bar usage={usage} thin />
    </div>
  );
}
