// API paths with "." or ".." segments, also percent-encoded ("a/%2e%2e/b.md"): Next.js resolves them before any
// route or proxy.ts sees the path, so "PUT …/knowledge/a/%2e%2e/b.md" wrote b.md. They are refused as sent, at the
// HTTP server, before Next.js parses the URL (browsers and fetch resolve them themselves and never send one).
import type http from "node:http";

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Whether a request target (path and query, as sent) is an API path holding a dot segment. */
export function apiPathHasDotSegment(target: string): boolean {
  const path = target.split("?", 1)[0]!;
  if (!/^\/+api(?:\/|$)/.test(path)) return false;
  // Only a real "/" separates segments: an encoded one ("..%2Fseed") stays inside its segment, which the route checks.
  return path.split("/").some((segment) => DOT_SEGMENT.test(segment));
}

// The words proxy.ts uses for the same refusal.
const MESSAGE = 'The URL path must not end with a slash, or contain an empty, "." or ".." segment (API paths never redirect).';

/** Makes every HTTP server of this process answer such requests with the API's 400 JSON error. */
export function refuseApiDotSegments(httpModule: typeof http): void {
  const marker = Symbol.for("hintline.dotSegmentGuard");
  const proto = httpModule.Server.prototype as unknown as Record<symbol, unknown> & { emit: (event: string, ...args: unknown[]) => boolean };
  if (proto[marker]) return;
  proto[marker] = true;
  const emit = proto.emit;
  proto.emit = function guardedEmit(this: unknown, event: string, ...args: unknown[]) {
    if (event === "request") {
      const [request, response] = args as [http.IncomingMessage, http.ServerResponse];
      if (apiPathHasDotSegment(request.url ?? "")) {
        const body = JSON.stringify({ error: { code: "bad_request", message: MESSAGE } });
        response.writeHead(400, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        response.end(body);
        return true;
      }
    }
    return emit.call(this, event, ...args);
  };
}
