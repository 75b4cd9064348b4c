"use client";
// The inspector's list of the conversation's model calls: input, cached and output tokens, the estimated cost (when
// the model has a price), the model that answered each, and the calls whose input broke the provider's cache, with
// where and why.
import type { CacheBreak, CacheTotals, CallCacheFigures } from "@/lib/chat-message";
import { hitRate } from "../context/meter-math";

export type CallRow = {
  call: number;
  messageId: string;
  model: string;
  inputTokens: number | null;
  cachedInputTokens: number | null;
  outputTokens: number | null;
  cost: number | null;
  /** The call read nothing because its input was under the model's minimum cacheable prompt (not a break). */
  cacheReason?: "below-cache-floor";
  minCacheTokens?: number;
};

export type CacheView = {
  lastCall: CallCacheFigures | null;
  conversation: CacheTotals;
  breaks: CacheBreak[];
  calls: CallRow[];
};

const CAUSE_TEXT: Record<CacheBreak["cause"], string> = {
  compression: "compression",
  "prompt-edit": "prompt edited",
  "settings-edit": "settings changed the history (timestamps)",
  "replaced-status": "replaced status",
  retry: "reply retried",
  branch: "branch edited or switched",
  "model-switch": "model switched",
  "tools-changed": "new tools taken in",
  "ttl-expired": "the cache expired (idle longer than its TTL)",
  unexpected: "unexpected change",
};

const n = (v: number | null) => (v === null ? "–" : v.toLocaleString());

export function formatCost(dollars: number): string {
  if (dollars === 0) return "$0";
  if (dollars < 0.0001) return "<$0.0001";
  return `$${dollars < 0.01 ? dollars.toFixed(4) : dollars.toFixed(3)}`;
}

function breakText(b: CacheBreak): string {
  const where =
    b.changed === "messages"
      ? `from message ${b.firstChangedMessage}`
      : b.changed === "system"
        ? "system prompt changed"
        : b.changed === "model"
          ? "another model"
          : b.changed === "time"
            ? "from the start"
            : "tools changed";
  return `Cache break · ${where} · ${CAUSE_TEXT[b.cause]}`;
}

export function CacheCalls({ cache }: { cache: CacheView }) {
  const breaks = new Map(cache.breaks.map((b) => [b.call, b]));
  const total = cache.calls.reduce((sum, c) => (c.cost === null ? sum : sum + c.cost), 0);
  const priced = cache.calls.some((c) => c.cost !== null);
  const rate = hitRate(cache.conversation);
  return (
    <section data-testid="inspector-calls">
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
        Model calls ({cache.calls.length}){rate !== null && ` · ${rate} % cached`}
        {priced && ` · ${formatCost(total)}`}
      </h3>
      {cache.calls.length === 0 ? (
        <p className="text-xs text-muted">No model call has reported its usage yet.</p>
      ) : (
        <table className="w-full text-xs tabular-nums">
          <thead className="text-muted">
            <tr>
              <th className="text-left font-medium">#</th>
              <th className="pl-2 text-left font-medium">Model</th>
              <th className="text-right font-medium">Input</th>
              <th className="text-right font-medium">Cached</th>
              <th className="text-right font-medium">Output</th>
              <th className="text-right font-medium">Cost</th>
            </tr>
          </thead>
          <tbody>
            {cache.calls.map((c) => {
              const found = breaks.get(c.call);
              return [
                <tr
                  key={c.call}
                  data-testid="inspector-call"
                  data-call={c.call}
                  data-break={found ? found.cause : undefined}
                  className={found ? (found.cause === "unexpected" ? "bg-danger/10" : "bg-amber-500/10") : undefined}
                >
                  <td>{c.call}</td>
                  <td
                    data-testid="inspector-call-model"
                    title={c.model}
                    className="max-w-[10rem] truncate pl-2 font-sans"
                  >
                    {c.model}
                  </td>
                  <td className="text-right">{n(c.inputTokens)}</td>
                  <td className="text-right">{n(c.cachedInputTokens)}</td>
                  <td className="text-right">{n(c.outputTokens)}</td>
                  <td className="text-right">{c.cost === null ? "–" : formatCost(c.cost)}</td>
                </tr>,
                !found && c.cacheReason === "below-cache-floor" && (
                  <tr key={`${c.call}-floor`} data-testid="inspector-cache-floor">
                    <td colSpan={6} className="pb-1 text-muted">
                      Nothing cached: the input is under the model's {n(c.minCacheTokens ?? null)}-token minimum
                    </td>
                  </tr>
                ),
                found && (
                  <tr key={`${c.call}-break`} data-testid="inspector-break" data-cause={found.cause}>
                    <td
                      colSpan={6}
                      className={
                        found.cause === "unexpected" ? "pb-1 text-danger" : "pb-1 text-amber-700 dark:text-amber-400"
                      }
                    >
                      {breakText(found)}
                    </td>
                  </tr>
                ),
              ];
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
