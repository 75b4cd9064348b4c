import { otherMethodsNotAllowed, publicRoute } from "@/lib/http/request";
import { health } from "@/lib/ops/health";

export const dynamic = "force-dynamic";

// No sign-in (a load balancer asks it); proxy.ts still checks the Host.
export const GET = publicRoute(async () => {
  const body = await health();
  return Response.json(body, { status: body.status === "ok" ? 200 : 503, headers: { "cache-control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
