import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { readKnowledgeBody } from "@/lib/http/text-body";
import { MAX_KNOWLEDGE_FILE_BYTES } from "@/lib/agent/workspace-limits";
import {
  KNOWLEDGE_FILE_LIMIT,
  knowledgePath,
  readKnowledge,
  removeKnowledge,
  saveKnowledge,
} from "@/lib/chat/knowledge";

export const dynamic = "force-dynamic";

type Params = { id: string; path: string[] };

export const GET = route<Params>(async (_request, { id, path }) => {
  const file = await readKnowledge(parseWith(idSchema, id, "workspace id"), knowledgePath(path));
  const type = /\.(md|markdown)$/i.test(file.path) ? "text/markdown" : "text/plain";
  return new Response(file.content, {
    headers: { "content-type": `${type}; charset=utf-8`, "last-modified": new Date(file.updatedAt).toUTCString() },
  });
});

export const PUT = route<Params>(async (request, { id, path }) => {
  const workspaceId = parseWith(idSchema, id, "workspace id");
  const filePath = knowledgePath(path);
  const content = await readKnowledgeBody(request, {
    maxBytes: MAX_KNOWLEDGE_FILE_BYTES,
    limitName: KNOWLEDGE_FILE_LIMIT,
    name: filePath,
  });
  const { file, created } = await saveKnowledge(workspaceId, filePath, content);
  return Response.json(file, { status: created ? 201 : 200 });
});

export const DELETE = route<Params>(async (_request, { id, path }) => {
  await removeKnowledge(parseWith(idSchema, id, "workspace id"), knowledgePath(path));
  return new Response(null, { status: 204 });
});

export const { POST, PATCH, OPTIONS } = otherMethodsNotAllowed("GET", "PUT", "DELETE");
