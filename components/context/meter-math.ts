// Pure: the meter's figures and zone.
import type { ContextUsage } from "@/lib/chat-message";

export type Zone = "ok" | "buffer" | "trigger";

export function zoneOf(u: ContextUsage): Zone {
  if (u.inputTokens >= u.triggerTokens) return "trigger";
  if (u.inputTokens > u.bufferStartTokens) return "buffer";
  return "ok";
}

export function shortTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

export function meterLabel(u: ContextUsage): string {
  const pct = u.contextWindow ? Math.round((u.inputTokens / u.contextWindow) * 100) : 0;
  return `${shortTokens(u.inputTokens)} / ${shortTokens(u.contextWindow)} · ${pct}%`;
}

export const pctOf = (n: number, u: ContextUsage) =>
  `${Math.min(100, Math.max(0, (n / u.contextWindow) * 100)).toFixed(2)}%`;

/** Cached share of input tokens, in whole percent (none without input). */
export function hitRate(t: { inputTokens: number; cachedInputTokens: number } | null | undefined): number | null {
  if (!t || t.inputTokens <= 0) return null;
  return Math.round((Math.min(t.cachedInputTokens, t.inputTokens) / t.inputTokens) * 100);
}

/**
 * “Cache 92 % · conversation 85 %” (“Cache 0 %, under the model's 1,024-token minimum · …” when the last call was too
 * short to be cached), or null before the provider reported any call.
 */
export function cacheLabel(cache: ContextUsage["cache"]): string | null {
  const conversation = hitRate(cache?.conversation);
  if (conversation === null) return null;
  const last = hitRate(cache?.lastCall);
  const floor =
    cache?.lastCall?.cacheReason === "below-cache-floor" && cache.lastCall.minCacheTokens !== undefined
      ? `, under the model's ${cache.lastCall.minCacheTokens.toLocaleString("en")}-token minimum`
      : "";
  return `Cache ${last === null ? "–" : `${last} %`}${floor} · conversation ${conversation} %`;
}

/** MCP tools taking more of the window than this are worth a warning: they are sent with every call. */
export const MCP_TOOLS_WARNING_SHARE = 0.1;

/** The MCP tools' tokens per server (largest first), their share of the window, and whether it is worth a warning. */
export function mcpToolsOf(
  u: ContextUsage,
): { servers: Array<[string, number]>; tokens: number; share: number; warn: boolean } | null {
  const servers = Object.entries(u.toolsByServer ?? {}).sort((a, b) => b[1] - a[1]);
  if (!servers.length) return null;
  const tokens = servers.reduce((n, [, t]) => n + t, 0);
  const share = u.contextWindow > 0 ? tokens / u.contextWindow : 0;
  return { servers, tokens, share, warn: share > MCP_TOOLS_WARNING_SHARE };
}

/**
 * The fixed part every call sends before the conversation — the system prompt and the tool definitions (MCP's
 * included) — in tokens and whole percent of the window; null without a breakdown.
 */
export function fixedPartOf(u: ContextUsage): { tokens: number; pct: number } | null {
  if (!u.breakdown) return null;
  const tokens = u.breakdown.system + u.breakdown.tools;
  return { tokens, pct: u.contextWindow > 0 ? Math.round((tokens / u.contextWindow) * 100) : 0 };
}
