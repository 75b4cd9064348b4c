"use client";
// The inspector's state sources: each enabled source of the workspace with its latest reading, and the State hints the
// next model call would be told (a source whose fields did not change since the context last told them: none).

export type StateSourcesView = {
  sources: Array<{ name: string; status: "read" | "failing" | "not read yet"; at?: string; reason?: string }>;
  next: Array<{ source: string; text: string }>;
};

export function StateSourcesPanel({ view }: { view: StateSourcesView }) {
  return (
    <section data-testid="inspector-state">
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
        State sources ({view.sources.length})
      </h3>
      <ul className="space-y-0.5 text-xs">
        {view.sources.map((s) => (
          <li key={s.name} data-testid="inspector-state-source" data-name={s.name} data-status={s.status}>
            <span className="font-mono">{s.name}</span>{" "}
            <span className="text-muted">
              ·{" "}
              {s.status === "read"
                ? `read at ${s.at}`
                : s.status === "failing"
                  ? `failing since ${s.at}: ${s.reason}`
                  : "not read yet"}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs font-medium">The next call would be told</p>
      {view.next.length === 0 ? (
        <p data-testid="inspector-state-next-none" className="text-xs text-muted">
          Nothing: no source changed since the context last told it.
        </p>
      ) : (
        view.next.map((hint) => (
          <pre
            key={hint.source}
            data-testid="inspector-state-next"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must be reachable by keyboard to be scrolled
            tabIndex={0}
            role="region"
            aria-label={`State hint for ${hint.source}`}
            className="mt-1 overflow-x-auto rounded-lg border border-border bg-code px-3 py-2 font-mono text-xs whitespace-pre-wrap"
          >
            {hint.text}
          </pre>
        ))
      )}
    </section>
  );
}
