// Who may use this Hintline, chosen by the environment: open (no sign-in, loopback only), token (one person holding
// HINTLINE_AUTH_TOKEN) or accounts (HINTLINE_AUTH=accounts: a team, each person signed in with their own account).
export type AuthMode = "open" | "token" | "accounts";
type Env = Record<string, string | undefined>;

export function authMode(env: Env = process.env): AuthMode {
  if (env.HINTLINE_AUTH === "accounts") return "accounts";
  return env.HINTLINE_AUTH_TOKEN ? "token" : "open";
}

/** Anyone may sign up in accounts mode (not only with an admin's invitation). */
export function openSignUp(env: Env = process.env): boolean {
  return env.HINTLINE_OPEN_SIGNUP === "1" || env.HINTLINE_OPEN_SIGNUP === "true";
}
