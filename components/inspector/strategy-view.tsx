"use client";
// The injection strategy in the inspector: as configured, what the last model call chose, and why, with the figures
// of the cost model it used, in words.
import type { StrategyDecision } from "@/lib/agent/injection-strategy";

export function StrategyView({ strategy }: { strategy: StrategyDecision }) {
  const figure = (n: number) => (Number.isInteger(n) ? n.toLocaleString() : n.toFixed(1));
  return (
    <section data-testid="inspector-strategy" data-chosen={strategy.chosen} data-configured={strategy.configured}>
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">Injection strategy</h3>
      <p className="text-sm">
        <span className="font-medium">{strategy.configured}</span>
        {strategy.configured === "auto" && (
          <>
            {" "}
            → chose{" "}
            <span data-testid="inspector-strategy-chosen" className="font-medium">
              {strategy.chosen}
            </span>
          </>
        )}
      </p>
      <p data-testid="inspector-strategy-reason" className="text-xs text-muted">
        {strategy.reason}
      </p>
      <p data-testid="inspector-strategy-figures" className="text-xs text-muted">
        A status is {figure(strategy.S)} tokens, a hint {figure(strategy.h)}; the state changed at{" "}
        {Math.round(strategy.p * 100)} % of {strategy.M} calls; re-reading costs {Math.round(strategy.alpha * 100)} % of
        new input ({strategy.alphaFrom === "measured" ? "as this conversation's provider cached" : "by the price list"}
        ).
      </p>
    </section>
  );
}
