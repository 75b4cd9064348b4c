"use client";
// The inspector's Subagents section: each child's model calls summed (input, cached, output tokens, cost), all of
// them together, and the conversation's total including them (components/inspector/cost-rollup.ts).
import { type CallFigures, type ChildCalls, costRollup, type Totals } from "./cost-rollup";
import { formatCost } from "./cache-calls";

function Row({
  name,
  totals,
  testId,
  strong = false,
}: {
  name: string;
  totals: Totals;
  testId: string;
  strong?: boolean;
}) {
  return (
    <tr data-testid={testId} className={strong ? "font-semibold" : ""}>
      <td className="max-w-[12rem] truncate pr-2">{name}</td>
      <td className="text-right">{totals.calls}</td>
      <td className="text-right">{totals.inputTokens.toLocaleString("en-US")}</td>
      <td className="text-right">{totals.cachedInputTokens.toLocaleString("en-US")}</td>
      <td className="text-right">{totals.outputTokens.toLocaleString("en-US")}</td>
      <td className="text-right">{totals.cost === null ? "–" : formatCost(totals.cost)}</td>
    </tr>
  );
}

export function SubagentCosts({ own, agents }: { own: CallFigures[]; agents: ChildCalls[] }) {
  if (agents.length === 0) return null;
  const rollup = costRollup(own, agents);
  return (
    <section data-testid="inspector-subagents">
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
        Subagents ({agents.length}){rollup.total.cost !== null && ` · total with them ${formatCost(rollup.total.cost)}`}
      </h3>
      <table className="w-full text-xs tabular-nums">
        <thead className="text-muted">
          <tr>
            <th className="text-left font-medium">Agent</th>
            <th className="text-right font-medium">Calls</th>
            <th className="text-right font-medium">Input</th>
            <th className="text-right font-medium">Cached</th>
            <th className="text-right font-medium">Output</th>
            <th className="text-right font-medium">Cost</th>
          </tr>
        </thead>
        <tbody>
          {rollup.children.map((child) => (
            <Row
              key={child.conversationId}
              testId="inspector-subagent"
              name={`${child.depth > 1 ? "↳ " : ""}${child.agentKey}${child.label ? ` · ${child.label}` : ""} (${child.status})`}
              totals={child}
            />
          ))}
          <Row testId="inspector-subagents-sum" name="All subagents" totals={rollup.subagents} />
          <Row testId="inspector-own" name="This conversation" totals={rollup.own} />
          <Row testId="inspector-cost-total" name="Total" totals={rollup.total} strong />
        </tbody>
      </table>
    </section>
  );
}
