// A conversation's figures with its subagents': each child's model calls summed (input, cached, output tokens and
// cost), all children together, and the total that includes them. Pure, for the inspector.

export type CallFigures = {
  inputTokens: number | null;
  cachedInputTokens: number | null;
  outputTokens: number | null;
  cost: number | null;
};
export type ChildCalls = {
  agentKey: string;
  agentId: string;
  label?: string;
  conversationId: string;
  status: string;
  depth: number;
  calls: CallFigures[];
};

/** Sums; `cost` is null when no call was priced (a model without a price), and counts the priced calls otherwise. */
export type Totals = {
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  cost: number | null;
};

export type Rollup = {
  own: Totals;
  children: Array<Omit<ChildCalls, "calls"> & Totals>;
  subagents: Totals;
  total: Totals;
};

const count = (n: number | null | undefined) => (typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : 0);

export function sumCalls(calls: readonly CallFigures[]): Totals {
  let cost: number | null = null;
  const totals = { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
  for (const c of calls) {
    totals.calls++;
    totals.inputTokens += count(c.inputTokens);
    totals.cachedInputTokens += count(c.cachedInputTokens);
    totals.outputTokens += count(c.outputTokens);
    if (typeof c.cost === "number" && Number.isFinite(c.cost) && c.cost >= 0) cost = (cost ?? 0) + c.cost;
  }
  return { ...totals, cost };
}

export function addTotals(...all: Totals[]): Totals {
  const costs = all.map((t) => t.cost).filter((c): c is number => c !== null);
  return {
    calls: all.reduce((s, t) => s + t.calls, 0),
    inputTokens: all.reduce((s, t) => s + t.inputTokens, 0),
    cachedInputTokens: all.reduce((s, t) => s + t.cachedInputTokens, 0),
    outputTokens: all.reduce((s, t) => s + t.outputTokens, 0),
    cost: costs.length ? costs.reduce((s, c) => s + c, 0) : null,
  };
}

/** The parent's own calls, each child's (grandchildren included, each as its own row), and the totals. */
export function costRollup(own: readonly CallFigures[], children: readonly ChildCalls[]): Rollup {
  const ownTotals = sumCalls(own);
  const rows = children.map(({ calls, ...child }) => ({ ...child, ...sumCalls(Array.isArray(calls) ? calls : []) }));
  const subagents = addTotals(...rows);
  return { own: ownTotals, children: rows, subagents, total: addTotals(ownTotals, subagents) };
}
