// Signing up and in to accounts mode (HINTLINE_AUTH=accounts) as a browser would: the session cookie comes back in
// Set-Cookie, and later requests send it with the Origin of the server.
export type Account = { email: string; password: string; name: string };
/** `user`: the user as the sign-up or sign-in response gave it. */
export type SignedIn = {
  userId: string;
  cookie: string;
  headers: Record<string, string>;
  user?: { id: string; role?: string | null; [key: string]: unknown };
};

export function accountFor(name: string): Account {
  return { email: `${name.toLowerCase()}@example.test`, password: `${name}-correct-horse-battery`, name };
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header (cleared cookies left out). */
export function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .filter((pair) => pair.split("=")[1] !== "")
    .join("; ");
}

function headersFor(url: string, cookie: string): Record<string, string> {
  return { cookie, origin: new URL(url).origin };
}

async function signedIn(url: string, response: Response): Promise<SignedIn> {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  const body = (await response.json()) as { user: NonNullable<SignedIn["user"]> };
  const cookie = cookieOf(response);
  return { userId: body.user.id, cookie, headers: headersFor(url, cookie), user: body.user };
}

export function postAuth(
  url: string,
  path: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${url}/api/auth/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: new URL(url).origin, ...headers },
    body: JSON.stringify(body),
  });
}

export async function signUp(url: string, account: Account, invitation?: string): Promise<SignedIn> {
  return signedIn(url, await postAuth(url, "sign-up/email", { ...account, ...(invitation ? { invitation } : {}) }));
}

export async function signIn(url: string, account: Pick<Account, "email" | "password">): Promise<SignedIn> {
  return signedIn(url, await postAuth(url, "sign-in/email", { email: account.email, password: account.password }));
}

/** An admin's invitation token (the `invitation` parameter of the link POST /api/admin/invitations answers). */
export async function invite(url: string, admin: SignedIn): Promise<string> {
  const response = await fetch(`${url}/api/admin/invitations`, { method: "POST", headers: admin.headers });
  if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`);
  const { url: link } = (await response.json()) as { url: string };
  return new URL(link).searchParams.get("invitation")!;
}
