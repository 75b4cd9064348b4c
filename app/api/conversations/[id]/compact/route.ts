import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { compactNow } from "@/lib/chat/compact-now";

export const dynamic = "force-dynamic";
export const maxDuration = 120;

export const POST = route<{ id: string }>(async (_request, { id }, viewer) =>
  Response.json(await compactNow(parseWith(idSchema, id, "conversation id"), viewer)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
