// The stored rows as both query paths return them (Prisma's client, and lib/db/sqlite-direct.ts on SQLite), with
// JSON columns left unknown: the converters read them defensively.
export type ConversationRow = {
  id: string;
  workspaceId: string;
  title: string;
  settings: unknown;
  agentState: unknown;
  taskSeq: number;
  messageSeq: number;
  mode: string;
  planSeq: number;
  model: string | null;
  /** A subagent's conversation: the conversation that spawned it. */
  parentId: string | null;
  /** Accounts mode: the user it belongs to (null: the one person of open or token mode). */
  ownerId?: string | null;
  pinned?: boolean;
  archived?: boolean;
  createdAt: Date;
  updatedAt: Date;
};

export type PlanVersionRow = {
  conversationId: string;
  version: number;
  content: string;
  author: string;
  createdAt: Date;
};

/** A workspace's MCP server as stored (lib/db/mcp-servers.ts reads it). */
export type McpServerStoredRow = {
  workspaceId: string;
  name: string;
  url: string;
  headers: unknown;
  approval: string;
  enabled: boolean;
  timeoutSeconds: number | null;
  alwaysAllow: unknown;
  createdAt: Date;
  updatedAt: Date;
};

export type MessageRow = {
  conversationId: string;
  id: string;
  position: number;
  role: string;
  parts: unknown;
  metadata: unknown;
  status: string;
  createdAt: Date;
  updatedAt: Date;
};

export type TaskRow = {
  conversationId: string;
  id: string;
  subject: string;
  description: string;
  status: string;
  owner: string | null;
  blocks: unknown;
  blockedBy: unknown;
  metadata: unknown;
  position: number;
  createdAt: Date;
  updatedAt: Date;
};

/** A whole conversation as an import writes it (timestamps are the time of the import). */
export type ImportedRows = {
  conversation: {
    id: string;
    title: string;
    settings: object;
    taskSeq: number;
    messageSeq: number;
    /** Messages below this position are never offered for durable facts (an import's: not said here). */
    memoryFrom?: number;
    mode: string;
    planSeq: number;
    model?: string | null;
    pinned?: boolean;
    archived?: boolean;
    /** Where the import lands: the importing user's (accounts mode) default workspace; absent: "default". */
    workspaceId?: string;
    ownerId?: string | null;
  };
  messages: Array<{ id: string; role: string; position: number; parts: object[]; metadata: object; status: string }>;
  tasks: Array<{
    id: string;
    subject: string;
    description: string;
    status: string;
    owner: string | null;
    blocks: string[];
    blockedBy: string[];
    metadata: object;
    position: number;
  }>;
  planVersions: Array<{ version: number; content: string; author: string; createdAt: Date }>;
};
