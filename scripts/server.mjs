// The HTTP server in front of Next.js (used by `npm start`, the API tests and the browser tests). Before Next.js sees
// a request it:
// - listens on loopback unless HOST says otherwise, and refuses an address open to the network without
//   HINTLINE_AUTH_TOKEN or accounts mode (unless HINTLINE_ALLOW_OPEN=1 says the operator means it);
// - sets X-Forwarded-For / X-Forwarded-Proto from the connection itself, unless HINTLINE_TRUST_PROXY=1 says a reverse
//   proxy in front sets them (a client could otherwise name any address or claim HTTPS);
// - answers an API path with "//" or "\" with a JSON 400 (Next.js would redirect it with a 308 before proxy.ts runs),
//   and one with a "." or ".." segment, also percent-encoded (Next.js would resolve "knowledge/a/%2e%2e/b.md" to
//   "knowledge/b.md" before any route sees it);
// - counts a request body as it arrives and answers 413 once it passes the route's ceiling (Next.js holds a whole
//   body, up to 10 MB, before proxy.ts or the route sees it; a chunked body declares no length to refuse it by).
import http from "node:http";
import module from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { maxRouteBodyBytes } from "../lib/api/body-limits.mjs";

// V8 keeps the code it compiled for Next.js and the app's server chunks between starts (NODE_COMPILE_CACHE names the
// folder, else the OS's temporary one): a restart, or another instance, does not compile them again.
module.enableCompileCache?.();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function isLoopbackHost(host) {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || name === "::1" || /^127(?:\.\d{1,3}){3}$/.test(name) || name === "::ffff:127.0.0.1";
}

/** Where to listen: `{ host }`, or `{ error }` when the address is open to the network and nothing protects it. */
export function listenHost(env = process.env) {
  const host = env.HOST?.trim() || "127.0.0.1";
  if (env.HINTLINE_AUTH && env.HINTLINE_AUTH !== "accounts") {
    return {
      error: `hintline: HINTLINE_AUTH=${JSON.stringify(env.HINTLINE_AUTH)} is not a mode: set it to "accounts", or leave it unset.`,
    };
  }
  if (
    isLoopbackHost(host) ||
    env.HINTLINE_AUTH_TOKEN ||
    env.HINTLINE_AUTH === "accounts" ||
    env.HINTLINE_ALLOW_OPEN === "1"
  )
    return { host };
  return {
    error:
      `hintline: refusing to listen on ${host} without an access token: anyone who can reach this machine could use it.\n` +
      "  Set HINTLINE_AUTH_TOKEN or HINTLINE_AUTH=accounts (and HINTLINE_ALLOWED_HOSTS to the name clients use), or HINTLINE_ALLOW_OPEN=1 to serve it open anyway.",
  };
}

/**
 * The most a body may hold here: the sign-in form, and any request without credentials on a server with a token
 * (proxy.ts refuses it anyway), are small; every other route has its own limit, at most an import's.
 */
export const SIGN_IN_BODY_LIMIT = 16 * 1024;
export function bodyLimit(pathname, headers, env = process.env) {
  if (pathname === "/api/auth/sign-in") return SIGN_IN_BODY_LIMIT;
  const credentials = headers.authorization || /(?:^|;\s*)hintline_session=/.test(headers.cookie ?? "");
  if (env.HINTLINE_AUTH_TOKEN && !credentials) return SIGN_IN_BODY_LIMIT;
  // Accounts mode: signing up or in, or anything sent without a session, is small too.
  if (
    env.HINTLINE_AUTH === "accounts" &&
    !/(?:^|;\s*)(?:__Secure-)?hintline\.session_token=/.test(headers.cookie ?? "")
  )
    return SIGN_IN_BODY_LIMIT;
  // Generous above the largest route limit (an import's, or a chat message's with its attachments), so that a route
  // answers a body just over its own limit with its own words; this only stops bodies far past any limit.
  return maxRouteBodyBytes(env) + 8 * 1024 * 1024;
}

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Whether a request target (path and query, as sent) is an API path holding a dot segment, plain or percent-encoded. */
export function apiPathHasDotSegment(target) {
  const pathname = target.split("?", 1)[0];
  if (!/^\/+api(?:\/|$)/.test(pathname)) return false;
  // Only a real "/" separates segments: an encoded one ("..%2Fseed") stays inside its segment, which the route checks.
  return pathname.split("/").some((segment) => DOT_SEGMENT.test(segment));
}

function jsonError(res, status, code, message) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { code, message } }));
}

/** How long a refused upload's connection stays open, reading and dropping what still arrives, after its 413. */
export const LINGER_MS = 2000;

/**
 * Closes a refused upload's connection gently. Closing a socket with unread data resets it, and a client still writing
 * then fails on its write and loses the 413 it has not read yet; Node.js closes a "Connection: close" answer's socket
 * that way (destroySoon) as soon as the answer is out. So: half-close after the answer instead, drop what still
 * arrives, and close for good when the client does or after LINGER_MS.
 */
function closeGently(req) {
  const socket = req.socket;
  socket.destroySoon = () => socket.end();
  req.resume();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/** Rewrites what Next.js may believe about the connection; answers the request itself (returns true) when it must. */
export function prepareRequest(req, res, trustProxy = process.env.HINTLINE_TRUST_PROXY === "1") {
  const pathname = (req.url ?? "/").split("?", 1)[0];
  if (pathname.startsWith("/api/") && /\/\/|\\/.test(pathname)) {
    jsonError(res, 400, "bad_request", 'The URL path must not contain "//" or "\\" (API routes never redirect).');
    return true;
  }
  if (apiPathHasDotSegment(req.url ?? "/")) {
    jsonError(
      res,
      400,
      "bad_request",
      'The URL path must not end with a slash, or contain an empty, "." or ".." segment (API paths never redirect).',
    );
    return true;
  }
  const limit = bodyLimit(pathname, req.headers);
  const tooLarge = () => {
    res.shouldKeepAlive = false;
    closeGently(req);
    jsonError(res, 413, "payload_too_large", `The request body is over the ${limit}-byte limit.`);
  };
  if (Number(req.headers["content-length"] ?? 0) > limit) {
    tooLarge();
    return true;
  }
  // Counted where the HTTP parser hands over each piece; past the limit the rest is dropped and the connection closed.
  let received = 0;
  let refused = false;
  const push = req.push;
  req.push = function countedPush(chunk, encoding) {
    if (refused) return true;
    if (chunk) received += chunk.length;
    if (received > limit) {
      refused = true;
      tooLarge();
      return true;
    }
    return push.call(this, chunk, encoding);
  };
  if (!trustProxy) {
    for (const name of ["x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "x-forwarded-port"])
      delete req.headers[name];
  }
  req.headers["x-forwarded-for"] ??= req.socket.remoteAddress ?? "unknown";
  req.headers["x-forwarded-proto"] ??= req.socket.encrypted ? "https" : "http";
  return false;
}

export async function serve({ port = Number(process.env.PORT) || 3000, env = process.env } = {}) {
  const where = listenHost(env);
  if (where.error) {
    console.error(where.error);
    process.exit(1);
  }
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: root, hostname: where.host, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => {
    if (prepareRequest(req, res)) return;
    handle(req, res);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, where.host, resolve);
  });
  const shown = where.host.includes(":") ? `[${where.host}]` : where.host;
  console.log(
    `hintline: listening on http://${shown}:${port}${isLoopbackHost(where.host) ? " (this machine only; HOST opens it)" : ""}`,
  );
  // SIGTERM drains the app (lib/ops/shutdown.ts, installed by instrumentation.ts), which exits when done; without it,
  // exit at once.
  for (const signal of ["SIGINT", "SIGTERM"])
    process.once(signal, () => globalThis.__hintlineShutdown?.installed || process.exit(0));
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.NODE_ENV ??= "production";
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  process.env.NEXT_MANUAL_SIG_HANDLE = "true";
  await serve();
}
