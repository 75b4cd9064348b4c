// One log line per API request (method, route, status, duration, request id), written by the route wrapper
// (lib/http/request.ts). The route is the path with its ids replaced (`/api/conversations/:id/stream`), so neither
// ids nor a knowledge file's or skill's name reach the log; the query string never does.
import { log } from "../log/logger.ts";

/** Path segments after which the next one is an id (or a name). */
const ID_AFTER = new Set(["conversations", "workspaces", "tasks", "memory", "skills"]);
const LITERALS = new Set(["import"]);

export function routeOf(pathname: string): string {
  const parts = pathname.split("/");
  for (let i = 1; i < parts.length; i++) {
    if (parts[i - 1] === "knowledge" && parts[i]) return [...parts.slice(0, i), "*"].join("/");
    if (ID_AFTER.has(parts[i - 1]!) && parts[i] && !LITERALS.has(parts[i]!)) parts[i] = ":id";
  }
  return parts.join("/");
}

const QUIET_ROUTES = new Set(["/api/health", "/api/metrics"]);
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The request's id: a well-formed `x-request-id` it came with, or a new one. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

function writeLine(line: { route: string; status: number }): void {
  // 503 is this instance draining (or its database down): expected during a restart, not a fault of the server.
  if (line.status === 503) log().warn(line, "request");
  else if (line.status >= 500) log().error(line, "request");
  // A load balancer's and a scraper's polls would drown the rest.
  else if (QUIET_ROUTES.has(line.route)) log().debug(line, "request");
  else log().info(line, "request");
}

/**
 * Logs the request and returns the response with its `x-request-id` header. The line is written on the next turn of
 * the event loop: a chat's response is returned while its reply is about to call the model, and the line (made and
 * written to stdout synchronously) would otherwise delay that call.
 */
export function logRequest(request: Request, response: Response, requestId: string, startedAt: number): Response {
  const line = {
    requestId,
    method: request.method,
    route: routeOf(new URL(request.url).pathname),
    status: response.status,
    durationMs: Math.round(performance.now() - startedAt),
  };
  setImmediate(writeLine, line);
  try {
    response.headers.set("x-request-id", requestId);
    return response;
  } catch {
    // A response with immutable headers (one from fetch): the same body and status in a new one.
    const copy = new Response(response.body, response);
    copy.headers.set("x-request-id", requestId);
    return copy;
  }
}
