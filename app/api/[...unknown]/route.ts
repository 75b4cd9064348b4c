import { ApiError, errorResponse } from "@/lib/api/errors";

export const dynamic = "force-dynamic";

// Any /api/… path no route serves: the API's JSON 404, not the HTML page Next.js would render.
function notFound(request: Request): Response {
  const path = new URL(request.url).pathname;
  return errorResponse(new ApiError("not_found", `There is no API route at ${path.slice(0, 200)}.`));
}

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
