// The transcript's divider where the conversation's model changed: "Model: A → B" before the first turn of the new model.
import type { ModelSwitch } from "./model-switches";

export function ModelSwitchMarker({ change }: { change: ModelSwitch }) {
  return (
    <div
      data-testid="model-switch"
      data-from={change.from}
      data-to={change.to}
      className="flex items-center gap-3 pb-6 text-xs text-muted"
    >
      <span aria-hidden="true" className="h-px flex-1 bg-border" />
      <span className="min-w-0 truncate">
        Model: <span className="font-medium text-fg/80">{change.from}</span> →{" "}
        <span className="font-medium text-fg/80">{change.to}</span>
      </span>
      <span aria-hidden="true" className="h-px flex-1 bg-border" />
    </div>
  );
}
