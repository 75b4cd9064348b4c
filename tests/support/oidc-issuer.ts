// A real OpenID Connect provider on a local HTTP port, for the accounts-mode OIDC tests: discovery, an authorize
// endpoint that signs in whichever test user `issuer.user` names at once and redirects back with a code, a token
// endpoint (client_secret_post or _basic, PKCE S256 checked) answering an id_token signed RS256, the JWKS, userinfo.
// node:crypto only.
import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type OidcUser = { sub: string; email: string; name: string; emailVerified?: boolean };

export type OidcIssuer = {
  url: string;
  clientId: string;
  clientSecret: string;
  /** The person who "signs in" at the next authorize request. */
  user: OidcUser;
  /** Ask the person to press Continue (a page of the issuer's) before redirecting back, as a real issuer does. */
  consent: boolean;
  /** Sign id_tokens with a key the JWKS does not hold (a forged token). */
  forgeSignature: boolean;
  /** What the issuer saw: each authorize request's query and each token request's form. */
  authorizeRequests: URLSearchParams[];
  tokenRequests: URLSearchParams[];
  close: () => Promise<void>;
};

const base64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

function signJwt(claims: object, key: KeyObject, kid: string): string {
  const input = `${base64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid }))}.${base64url(JSON.stringify(claims))}`;
  return `${input}.${createSign("RSA-SHA256").update(input).sign(key).toString("base64url")}`;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function json(res: http.ServerResponse, status: number, body: object): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

export async function startOidcIssuer({
  user,
  clientId = "hintline-test",
  clientSecret = "issuer-secret",
  port = 0,
  host = "127.0.0.1",
}: {
  user: OidcUser;
  clientId?: string;
  clientSecret?: string;
  port?: number;
  host?: string;
}): Promise<OidcIssuer> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const forged = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  const kid = randomBytes(8).toString("hex");
  const codes = new Map<string, { user: OidcUser; nonce?: string; redirectUri: string; challenge?: string }>();
  const accessTokens = new Map<string, OidcUser>();

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer.url);
    try {
      if (url.pathname === "/.well-known/openid-configuration") {
        return json(res, 200, {
          issuer: issuer.url,
          authorization_endpoint: `${issuer.url}/authorize`,
          token_endpoint: `${issuer.url}/token`,
          userinfo_endpoint: `${issuer.url}/userinfo`,
          jwks_uri: `${issuer.url}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          scopes_supported: ["openid", "email", "profile"],
          token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
          code_challenge_methods_supported: ["S256"],
        });
      }
      if (url.pathname === "/jwks")
        return json(res, 200, { keys: [{ ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" }] });
      if (url.pathname === "/authorize" && issuer.consent) {
        const fields = [...url.searchParams]
          .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
          .join("");
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(
          `<!doctype html><title>Test issuer</title><form method="get" action="/approve">${fields}<button data-testid="issuer-continue">Continue</button></form>`,
        );
      }
      if (url.pathname === "/authorize" || url.pathname === "/approve") {
        issuer.authorizeRequests.push(url.searchParams);
        const redirectUri = url.searchParams.get("redirect_uri") ?? "";
        if (
          url.searchParams.get("client_id") !== issuer.clientId ||
          !redirectUri ||
          url.searchParams.get("response_type") !== "code"
        ) {
          return json(res, 400, { error: "invalid_request" });
        }
        const code = randomBytes(16).toString("hex");
        codes.set(code, {
          user: issuer.user,
          nonce: url.searchParams.get("nonce") ?? undefined,
          redirectUri,
          challenge: url.searchParams.get("code_challenge") ?? undefined,
        });
        const back = new URL(redirectUri);
        back.searchParams.set("code", code);
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        back.searchParams.set("iss", issuer.url);
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (url.pathname === "/token" && req.method === "POST") {
        const form = new URLSearchParams(await readBody(req));
        issuer.tokenRequests.push(form);
        const basic = req.headers.authorization?.match(/^Basic (.+)$/)?.[1];
        const [id, secret] = basic
          ? Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent)
          : [form.get("client_id"), form.get("client_secret")];
        if (id !== issuer.clientId || secret !== issuer.clientSecret)
          return json(res, 401, { error: "invalid_client" });
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (!grant || form.get("grant_type") !== "authorization_code" || form.get("redirect_uri") !== grant.redirectUri)
          return json(res, 400, { error: "invalid_grant" });
        const verifier = form.get("code_verifier") ?? "";
        if (grant.challenge && createHash("sha256").update(verifier).digest("base64url") !== grant.challenge)
          return json(res, 400, { error: "invalid_grant", error_description: "PKCE" });
        const now = Math.floor(Date.now() / 1000);
        const { sub, email, name, emailVerified = true } = grant.user;
        const claims = {
          iss: issuer.url,
          sub,
          aud: issuer.clientId,
          iat: now,
          exp: now + 300,
          ...(grant.nonce ? { nonce: grant.nonce } : {}),
          email,
          email_verified: emailVerified,
          name,
        };
        const accessToken = randomBytes(16).toString("hex");
        accessTokens.set(accessToken, grant.user);
        return json(res, 200, {
          access_token: accessToken,
          token_type: "Bearer",
          expires_in: 300,
          scope: "openid email profile",
          id_token: signJwt(claims, issuer.forgeSignature ? forged : privateKey, kid),
        });
      }
      if (url.pathname === "/userinfo") {
        const found = accessTokens.get(req.headers.authorization?.replace(/^Bearer /, "") ?? "");
        if (!found) return json(res, 401, { error: "invalid_token" });
        return json(res, 200, {
          sub: found.sub,
          email: found.email,
          email_verified: found.emailVerified ?? true,
          name: found.name,
        });
      }
      json(res, 404, { error: "not_found" });
    } catch (error) {
      json(res, 500, { error: String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const issuer: OidcIssuer = {
    // `host` names it in URLs: "localhost" makes it another site than an app on 127.0.0.1, as a real issuer is.
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    clientId,
    clientSecret,
    user,
    consent: false,
    forgeSignature: false,
    authorizeRequests: [],
    tokenRequests: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return issuer;
}
