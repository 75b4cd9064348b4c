// A workspace's own switches, stored as JSON on the workspace and read defensively: what is missing or malformed
// takes its default. Today one: whether a compression may add durable facts to the workspace's memory.
export type WorkspaceSettings = { memory: { fromCompression: boolean } };
type WorkspaceSettingsPatch = { memory?: { fromCompression?: boolean } };

const DEFAULT_WORKSPACE_SETTINGS: WorkspaceSettings = { memory: { fromCompression: true } };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function resolveWorkspaceSettings(value: unknown): WorkspaceSettings {
  const memory = isRecord(value) && isRecord(value.memory) ? value.memory : {};
  return {
    memory: {
      fromCompression:
        typeof memory.fromCompression === "boolean"
          ? memory.fromCompression
          : DEFAULT_WORKSPACE_SETTINGS.memory.fromCompression,
    },
  };
}

export function mergeWorkspaceSettings(current: WorkspaceSettings, patch: WorkspaceSettingsPatch): WorkspaceSettings {
  return { memory: { ...current.memory, ...(patch.memory ?? {}) } };
}
