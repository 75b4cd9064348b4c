import { AccountSignInForm } from "@/components/accounts/auth-form";
import { authMode, openSignUp } from "@/lib/auth/mode";
import { oidcSettings } from "@/lib/auth/oidc";
import { oidcErrorText } from "@/lib/auth/oidc-errors";
import { safeNextPath } from "@/lib/auth/token";
import { noAccountYet } from "@/lib/chat/account-pages";

export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string }>;
}) {
  const { next, error } = await searchParams;
  if (authMode() === "accounts") {
    const oidcName = oidcSettings()?.name;
    return (
      <AccountSignInForm
        next={safeNextPath(next)}
        firstAccount={await noAccountYet()}
        openSignUp={openSignUp()}
        oidcName={oidcName}
        error={oidcErrorText(typeof error === "string" ? error : undefined, oidcName)}
      />
    );
  }
  return (
    <main className="flex min-h-dvh items-center justify-center px-6">
      <form
        method="post"
        action="/api/auth/sign-in"
        className="w-full max-w-sm rounded-2xl border border-border bg-elevated p-6 shadow-sm"
      >
        <h1 className="text-lg font-semibold">Sign in to Hintline</h1>
        <p data-testid="sign-in-note" className="mt-1 text-sm text-muted">
          Enter the access token that whoever runs this Hintline server gave you.
        </p>
        <input type="hidden" name="next" value={safeNextPath(next)} />
        <label className="mt-5 block text-sm font-medium" htmlFor="token">
          Access token
        </label>
        <input
          id="token"
          name="token"
          type="password"
          required
          autoFocus
          data-testid="sign-in-token"
          className="mt-1 w-full rounded-lg border border-border bg-bg px-3 py-2 outline-none focus:border-accent"
        />
        {error && (
          <p data-testid="sign-in-error" className="mt-2 text-sm text-danger">
            That token is not right.
          </p>
        )}
        <button
          type="submit"
          data-testid="sign-in-submit"
          className="mt-4 w-full rounded-lg bg-accent px-3 py-2 font-medium text-accent-fg"
        >
          Sign in
        </button>
      </form>
    </main>
  );
}
