// A workspace's knowledge files, as the API changes them and the agent reads them.
import { bumpWorkspaceRevision } from "../db/workspace-views.ts";
import { countTokens } from "../agent/token-count.ts";
import { MAX_KNOWLEDGE_FILE_BYTES, MAX_KNOWLEDGE_FILES } from "../agent/workspace-limits.ts";
import { knowledgePathProblem, normalizeKnowledgePath } from "../agent/workspace-text.ts";
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

/** The path of a knowledge route from its segments ("notes", "api.md" → "notes/api.md"), in NFC, checked. */
export function knowledgePath(segments: readonly string[]): string {
  const path = normalizeKnowledgePath(segments.join("/"));
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

/** Counting a 1 MB file takes about half a second: it is counted in slices cut at line ends, yielding between them. */
const COUNT_SLICE_CHARS = 32 * 1024;

async function countTokensInSlices(content: string): Promise<number> {
  let tokens = 0;
  for (let start = 0; start < content.length; ) {
    let end = Math.min(content.length, start + COUNT_SLICE_CHARS);
    if (end < content.length) {
      const lineEnd = content.lastIndexOf("\n", end);
      if (lineEnd > start) end = lineEnd + 1;
      else if (/[\ud800-\udbff]/.test(content[end - 1]!)) end--; // never between the halves of a pair
    }
    tokens += countTokens(content.slice(start, end));
    start = end;
    if (start < content.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return tokens;
}

export async function saveKnowledge(
  workspaceId: string,
  path: string,
  content: string,
): Promise<{ file: KnowledgeFileInfo; created: boolean }> {
  await requireWorkspace(workspaceId);
  const bytes = Buffer.byteLength(content, "utf8");
  if (bytes > MAX_KNOWLEDGE_FILE_BYTES)
    throw new ApiError("payload_too_large", `${KNOWLEDGE_FILE_LIMIT} (this one is ${bytes.toLocaleString("en-US")}).`);
  const tokens = await countTokensInSlices(content);
  const saved = await putKnowledgeFile({ workspaceId, path, content, bytes, tokens, maxFiles: MAX_KNOWLEDGE_FILES });
  if (saved === "limit") {
    throw new ApiError(
      "conflict",
      `Workspace ${workspaceId} already has ${MAX_KNOWLEDGE_FILES} knowledge files, the limit; delete one first.`,
    );
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
