// A workspace's own switches, stored as JSON on the workspace and read defensively: what is missing or malformed
// takes its default. Today one: whether the system keeps durable facts in the workspace's memory, at a compression and
// when a conversation ends (the name is from when only compressions did).
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
