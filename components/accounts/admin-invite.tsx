"use client";
// "Invite someone": a one-time sign-up link, valid for a week, for the admin to pass on.
import { useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { button, primary, section } from "./admin-styles";

type Invitation = { url: string; expiresAt: string };

export function AdminInvite() {
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);
  const invite = async () => {
    setBusy(true);
    setError(null);
    setCopied(false);
    try {
      setInvitation(await apiFetch<Invitation>("/api/admin/invitations", { method: "POST" }));
    } catch (e) {
      setError(failureText(e));
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    if (!invitation) return;
    try {
      await navigator.clipboard.writeText(invitation.url);
      setCopied(true);
    } catch {
      setError("The browser did not allow copying: select the link and copy it yourself.");
    }
  };
  return (
    <section aria-labelledby="invite-heading" className={section}>
      <h2 id="invite-heading" className="font-semibold">
        Invitations
      </h2>
      <p className="mt-1 text-sm text-muted">A link signs up one person; it works once, for a week.</p>
      <button
        type="button"
        data-testid="invite"
        disabled={busy}
        onClick={() => void invite()}
        className={`mt-3 ${primary}`}
      >
        Invite someone
      </button>
      {invitation && (
        <div className="mt-3 flex items-center gap-2">
          <input
            readOnly
            aria-label="Invitation link"
            data-testid="invite-link"
            value={invitation.url}
            onFocus={(e) => e.target.select()}
            className="min-w-0 flex-1 rounded-lg border border-border bg-bg px-2 py-1 font-mono text-xs"
          />
          <button type="button" data-testid="invite-copy" onClick={() => void copy()} className={button}>
            {copied ? "Copied" : "Copy"}
          </button>
        </div>
      )}
      {invitation && (
        <p className="mt-1 text-xs text-muted">
          Valid until <time dateTime={invitation.expiresAt}>{new Date(invitation.expiresAt).toLocaleString()}</time>.
        </p>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-danger">
          {error}
        </p>
      )}
    </section>
  );
}
