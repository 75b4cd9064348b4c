import { connectionIdSchema } from "@/lib/api/connection-schemas";
import { testConnection } from "@/lib/chat/connections";
import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";

export const dynamic = "force-dynamic";

// "Test": `{ ok: true, models }` or `{ ok: false, error }` in words; nothing is changed but the remembered model list.
export const POST = route<{ id: string }>(async (_request, { id }, viewer) =>
  Response.json(await testConnection(viewer, parseWith(connectionIdSchema, id, "connection id"))),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
