import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { isAdmin } from "@/lib/auth/viewer";
import { stateSourceNameSchema } from "@/lib/api/state-source-schemas";
import { readStateSourceForPerson } from "@/lib/chat/state-reader";

export const dynamic = "force-dynamic";

type Params = { id: string; name: string };

/** "Read now": reads the source once and answers its fields, or why it failed (200 either way: the read was done). */
export const POST = route<Params>(async (_request, { id, name }, viewer) =>
  Response.json(
    await readStateSourceForPerson(
      parseWith(idSchema, id, "workspace id"),
      parseWith(stateSourceNameSchema, name, "source name"),
      { operator: isAdmin(viewer) },
    ),
  ),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
