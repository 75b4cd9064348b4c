// A reply step's write: the harness state the decision changed, merged into the stored state in one statement, and
// only when something was told that the database keeps track of, that too (the workspace revision told, the MCP news
// told). The step's messages are stored with the reply's checkpoints; what they told (a child's answer handed over)
// is read from them by the next step.
import type { StepStatePatch } from "../../agent/step-decision.ts";
import { patchAgentState } from "../agent-state.ts";
import type { McpChangeTracker } from "../mcp-tool-changes.ts";
import type { WorkspaceTracker } from "../workspace-view.ts";
import type { StepNews } from "./read-step.ts";

export async function writeStep({
  conversationId,
  patch,
  news,
  workspace,
  mcp,
}: {
  conversationId: string;
  patch: StepStatePatch;
  news: StepNews;
  workspace: WorkspaceTracker;
  mcp?: McpChangeTracker;
}): Promise<void> {
  await Promise.all([
    Object.keys(patch).length ? patchAgentState(conversationId, patch) : undefined,
    news.workspace ? workspace.told(news.workspace) : undefined,
    news.mcp ? mcp?.told(news.mcp) : undefined,
  ]);
}
