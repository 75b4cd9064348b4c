import type { ModelInfo } from "@/lib/chat-message";

export function ModelBadge({ model }: { model: ModelInfo }) {
  const window =
    model.contextWindow >= 1000 ? `${Math.round(model.contextWindow / 1000)}k` : String(model.contextWindow);
  return (
    <span
      data-testid="model-badge"
      title={`${model.provider} · context window ${model.contextWindow.toLocaleString()} tokens`}
      className="inline-flex shrink-0 items-center gap-1.5 rounded-full border border-border px-2.5 py-1 text-xs whitespace-nowrap text-muted"
    >
      {model.isDemo && <span className="rounded-full bg-accent/15 px-1.5 font-medium text-accent">Demo</span>}
      {/* Compact on a narrow header (a container query): the demo's name goes, a real model's is cut. */}
      <span
        className={`max-w-[5.5rem] truncate font-medium text-fg/80 @3xl:inline @3xl:max-w-[9rem] ${model.isDemo ? "hidden" : ""}`}
      >
        {model.id}
      </span>
      <span className="hidden @3xl:inline">· {window} context</span>
      <span className="@3xl:hidden">· {window}</span>
    </span>
  );
}
