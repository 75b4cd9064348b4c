import { otherMethodsNotAllowed, route } from "@/lib/http/request";
import { requireAdmin } from "@/lib/auth/viewer";
import { metricsText } from "@/lib/ops/metrics";

export const dynamic = "force-dynamic";

// Prometheus text format; behind the access token when one is set (proxy.ts), for admins only in accounts mode.
export const GET = route(async (_request, _params, viewer) => {
  requireAdmin(viewer);
  const { body, contentType } = await metricsText();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
