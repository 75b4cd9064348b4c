// A workspace's knowledge files, as the API changes them and the agent reads them.
import { bumpWorkspaceRevision } from "../db/workspace-views.ts";
import { countTokens } from "../agent/token-count.ts";
import { MAX_KNOWLEDGE_FILE_BYTES, MAX_KNOWLEDGE_FILES } from "../agent/workspace-limits.ts";
import { knowledgePathProblem } from "../agent/workspace-text.ts";
import { ApiError } from "../api/errors.ts";
import {
  deleteKnowledgeFile,
  getKnowledgeFile,
  type KnowledgeFile,
  type KnowledgeFileInfo,
  listKnowledge,
  putKnowledgeFile,
} from "../db/knowledge.ts";
import { requireWorkspace } from "./workspaces.ts";

export const KNOWLEDGE_FILE_LIMIT = `A knowledge file may hold at most ${MAX_KNOWLEDGE_FILE_BYTES.toLocaleString("en-US")} bytes (1 MiB) of UTF-8 text`;

/** The path of a knowledge route from its segments ("notes", "api.md" → "notes/api.md"), checked. */
export function knowledgePath(segments: readonly string[]): string {
  const path = segments.join("/");
  const problem = knowledgePathProblem(path);
  if (problem) throw new ApiError("bad_request", `Invalid knowledge path: it ${problem}.`, "path");
  return path;
}

export async function workspaceKnowledge(workspaceId: string): Promise<KnowledgeFileInfo[]> {
  await requireWorkspace(workspaceId);
  return listKnowledge({ workspaceId });
}

export async function readKnowledge(workspaceId: string, path: string): Promise<KnowledgeFile> {
  await requireWorkspace(workspaceId);
  const file = await getKnowledgeFile({ workspaceId, path });
  if (!file) throw new ApiError("not_found", `Knowledge file ${path} does not exist in workspace ${workspaceId}.`);
  return file;
}

export async function saveKnowledge(workspaceId: string, path: string, content: string): Promise<{ file: KnowledgeFileInfo; created: boolean }> {
  await requireWorkspace(workspaceId);
  const bytes = Buffer.byteLength(content, "utf8");
  if (bytes > MAX_KNOWLEDGE_FILE_BYTES) throw new ApiError("payload_too_large", `${KNOWLEDGE_FILE_LIMIT} (this one is ${bytes.toLocaleString("en-US")}).`);
  const saved = await putKnowledgeFile({ workspaceId, path, content, bytes, tokens: countTokens(content), maxFiles: MAX_KNOWLEDGE_FILES });
  if (saved === "limit") {
    throw new ApiError("conflict", `Workspace ${workspaceId} already has ${MAX_KNOWLEDGE_FILES} knowledge files, the limit; delete one first.`);
  }
  await bumpWorkspaceRevision({ workspaceId });
  return saved;
}

export async function removeKnowledge(workspaceId: string, path: string): Promise<void> {
  await requireWorkspace(workspaceId);
  if (!(await deleteKnowledgeFile({ workspaceId, path }))) {
    throw new ApiError("not_found", `Knowledge file ${path} does not exist in workspace ${workspaceId}.`);
  }
  await bumpWorkspaceRevision({ workspaceId });
}
