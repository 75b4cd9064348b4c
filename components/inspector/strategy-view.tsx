"use client";
// How the agent hears of changes, in the inspector: as set, what the last model call chose and why, in a person's
// words with the figures the choice was made from (the cost model of docs/injection.md).
import type { StrategyDecision } from "@/lib/agent/injection-strategy";

const WAYS: Record<StrategyDecision["chosen"], string> = {
  append: "a note added where each change happened",
  replace: "one up-to-date note at the end, replaced on every call",
};

/** Why the last call told changes the way it did, in words. */
export function strategyReason(strategy: StrategyDecision): string {
  if (strategy.configured !== "auto") return "Set in this conversation's settings.";
  const costs = `Notes added as things change cost about ${strategy.appendCost.toLocaleString()} tokens a call; one replaced note about ${strategy.replaceCost.toLocaleString()}.`;
  const cheaper = strategy.appendCost <= strategy.replaceCost ? "append" : "replace";
  if (cheaper === strategy.chosen) return `${costs} The cheaper way was chosen.`;
  return `${costs} The other way is a little cheaper, but not by enough to switch.`;
}

export function StrategyView({ strategy }: { strategy: StrategyDecision }) {
  const figure = (n: number) => (Number.isInteger(n) ? n.toLocaleString() : n.toFixed(1));
  return (
    <section data-testid="inspector-strategy" data-chosen={strategy.chosen} data-configured={strategy.configured}>
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">How the agent hears of changes</h3>
      <p className="text-sm">
        {strategy.configured === "auto" ? "Chosen by cost: " : ""}
        <span data-testid="inspector-strategy-chosen" className="font-medium">
          {WAYS[strategy.chosen]}
        </span>{" "}
        <span className="text-xs text-muted">
          ({strategy.configured === "auto" ? `auto → ${strategy.chosen}` : strategy.chosen})
        </span>
      </p>
      <p data-testid="inspector-strategy-reason" className="text-xs text-muted">
        {strategyReason(strategy)}
      </p>
      <p data-testid="inspector-strategy-figures" className="text-xs text-muted">
        The full note is {figure(strategy.S)} tokens, a single change {figure(strategy.h)}; something changed before{" "}
        {Math.round(strategy.p * 100)} % of the {strategy.M} calls so far; text the provider has already seen costs{" "}
        {Math.round(strategy.alpha * 100)} % of new text (
        {strategy.alphaFrom === "measured" ? "as measured in this conversation" : "by the price list"}).
      </p>
    </section>
  );
}
