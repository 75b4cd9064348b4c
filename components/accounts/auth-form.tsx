"use client";
// Accounts mode's sign-in and sign-up forms: JSON to better-auth's endpoints (lib/http/account-routes.ts), the API's
// reason shown in words when it refuses, and a full page load on success (the server renders with the new session).
import Link from "next/link";
import { type FormEvent, type ReactNode, useState } from "react";

const field = "mt-1 w-full rounded-lg border border-border bg-bg px-3 py-2 outline-none focus:border-accent";
const label = "mt-4 block text-sm font-medium";

/** Hintline's errors are `{ error: { message } }`; better-auth's own are `{ message }`. */
async function refusal(response: Response, wrongPassword?: string): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string }; message?: string } | null;
  // better-auth says "Invalid email or password": the same words whichever of the two was wrong.
  if (response.status === 401 && wrongPassword) return wrongPassword;
  return body?.error?.message ?? body?.message ?? `The server refused (HTTP ${response.status}).`;
}

function useSubmit(path: string, then: string, wrongPassword?: string) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>, body: Record<string, string>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(`/api/auth/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (response.ok) {
        window.location.assign(then);
        return;
      }
      setError(await refusal(response, wrongPassword));
    } catch {
      setError("Can't reach the server — try again when it is back.");
    }
    setBusy(false);
  };
  return { error, busy, submit };
}

function Frame({
  title,
  intro,
  error,
  children,
  testId,
}: {
  title: string;
  intro: ReactNode;
  error: string | null;
  children: ReactNode;
  testId: string;
}) {
  return (
    <main className="flex min-h-dvh items-center justify-center px-6">
      <div data-testid={testId} className="w-full max-w-sm rounded-2xl border border-border bg-elevated p-6 shadow-sm">
        <h1 className="text-lg font-semibold">{title}</h1>
        <p className="mt-1 text-sm text-muted">{intro}</p>
        {children}
        {error && (
          <p role="alert" data-testid="auth-error" className="mt-3 text-sm text-danger">
            {error}
          </p>
        )}
      </div>
    </main>
  );
}

function Fields({
  children,
  busy,
  action,
  onSubmit,
}: {
  children: ReactNode;
  busy: boolean;
  action: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form onSubmit={onSubmit}>
      {children}
      <button
        type="submit"
        disabled={busy}
        data-testid="auth-submit"
        className="mt-5 w-full rounded-lg bg-accent px-3 py-2 font-medium text-accent-fg disabled:opacity-60"
      >
        {action}
      </button>
    </form>
  );
}

/** A plain link: the sign-in starts with a full navigation to the provider and comes back to the app. */
function OidcLink({ name, invitation }: { name: string; invitation?: string }) {
  const href = `/api/auth/sign-in/oidc${invitation ? `?invitation=${encodeURIComponent(invitation)}` : ""}`;
  return (
    <a
      href={href}
      data-testid="auth-oidc"
      className="mt-3 block w-full rounded-lg border border-border px-3 py-2 text-center font-medium hover:bg-bg"
    >
      Continue with {name}
    </a>
  );
}

export function AccountSignInForm({
  next,
  oidcName,
  error: initialError,
  firstAccount = false,
  openSignUp = false,
}: {
  next: string;
  oidcName?: string;
  error?: string | null;
  /** No account exists yet: the first one to sign up becomes the admin. */
  firstAccount?: boolean;
  /** HINTLINE_OPEN_SIGNUP=1: anyone may sign up, without an invitation. */
  openSignUp?: boolean;
}) {
  const { error: submitError, busy, submit } = useSubmit("sign-in/email", next, "The email or password is not right.");
  const error = submitError ?? initialError ?? null;
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  return (
    <Frame testId="account-sign-in" title="Sign in to Hintline" intro="With your email and password." error={error}>
      <Fields busy={busy} action="Sign in" onSubmit={(e) => void submit(e, { email, password })}>
        <label className={label} htmlFor="email">
          Email
        </label>
        <input
          id="email"
          type="email"
          autoComplete="email"
          required
          autoFocus
          data-testid="auth-email"
          className={field}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <label className={label} htmlFor="password">
          Password
        </label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          required
          data-testid="auth-password"
          className={field}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Fields>
      {oidcName && <OidcLink name={oidcName} />}
      {firstAccount ? (
        <p data-testid="sign-up-note" className="mt-4 text-sm text-muted">
          No one has an account yet: the first account becomes the admin.{" "}
          <Link href="/sign-up" data-testid="to-sign-up" className="text-accent underline">
            Create it
          </Link>
          .
        </p>
      ) : (
        <p data-testid="sign-up-note" className="mt-4 text-sm text-muted">
          New here?{" "}
          <Link href="/sign-up" data-testid="to-sign-up" className="text-accent underline">
            Sign up
          </Link>
          {openSignUp ? "." : " with the invitation link an admin gave you."}
        </p>
      )}
    </Frame>
  );
}

export function AccountSignUpForm({
  invitation,
  firstAccount,
  openSignUp,
  minPassword,
  oidcName,
}: {
  invitation?: string;
  /** HINTLINE_OIDC_NAME (or the issuer's host) when OpenID Connect sign-in is configured. */
  oidcName?: string;
  firstAccount: boolean;
  /** HINTLINE_OPEN_SIGNUP=1: anyone may sign up, without an invitation. */
  openSignUp: boolean;
  minPassword: number;
}) {
  const { error, busy, submit } = useSubmit("sign-up/email", "/");
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const intro = firstAccount
    ? "No one has an account yet: this first account is the admin's, who invites everyone else."
    : invitation
      ? "You were invited: choose your name and password."
      : openSignUp
        ? "Anyone may sign up on this server."
        : "Signing up needs an invitation link from an admin.";
  return (
    <Frame
      testId="account-sign-up"
      title={firstAccount ? "Create the admin account" : "Sign up for Hintline"}
      intro={intro}
      error={error}
    >
      <Fields
        busy={busy}
        action={firstAccount ? "Create the admin account" : "Sign up"}
        onSubmit={(e) => void submit(e, { name, email, password, ...(invitation ? { invitation } : {}) })}
      >
        <label className={label} htmlFor="name">
          Name
        </label>
        <input
          id="name"
          autoComplete="name"
          required
          maxLength={100}
          autoFocus
          data-testid="auth-name"
          className={field}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <label className={label} htmlFor="email">
          Email
        </label>
        <input
          id="email"
          type="email"
          autoComplete="email"
          required
          data-testid="auth-email"
          className={field}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <label className={label} htmlFor="password">
          Password <span className="font-normal text-muted">(at least {minPassword} characters)</span>
        </label>
        <input
          id="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minPassword}
          maxLength={256}
          data-testid="auth-password"
          className={field}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Fields>
      {oidcName && <OidcLink name={oidcName} invitation={invitation} />}
      <p className="mt-4 text-sm text-muted">
        Have an account?{" "}
        <Link href="/sign-in" className="text-accent underline">
          Sign in
        </Link>
      </p>
    </Frame>
  );
}
