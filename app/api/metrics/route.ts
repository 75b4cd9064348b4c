import { otherMethodsNotAllowed, route } from "@/lib/api/request";
import { metricsText } from "@/lib/ops/metrics";

export const dynamic = "force-dynamic";

// Prometheus text format; behind the access token when one is set (proxy.ts).
export const GET = route(async () => {
  const { body, contentType } = await metricsText();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
