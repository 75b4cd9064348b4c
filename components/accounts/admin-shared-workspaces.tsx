"use client";
// Shared workspaces: everyone signed in can use them (their instructions, memory, knowledge, skills, tools); their
// owner and the admins change them. Each person's conversations in one stay their own.
import Link from "next/link";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { primary, section } from "./admin-styles";

type Workspace = { id: string; name: string; shared?: boolean };

export function AdminSharedWorkspaces() {
  const [shared, setShared] = useState<Workspace[] | null>(null);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    try {
      setShared((await apiFetch<Workspace[]>("/api/workspaces")).filter((w) => w.shared === true));
    } catch (e) {
      setError(failureText(e));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError("Give the workspace a name.");
    setBusy(true);
    setError(null);
    try {
      const created = await apiFetch<Workspace>("/api/workspaces", {
        method: "POST",
        body: JSON.stringify({ name: name.trim(), shared: true }),
      });
      setShared((list) => [...(list ?? []), { ...created, shared: true }]);
      setName("");
    } catch (e) {
      setError(failureText(e, { kept: "name" }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="shared-heading" className={section}>
      <h2 id="shared-heading" className="font-semibold">
        Shared workspaces
      </h2>
      <p className="mt-1 text-sm text-muted">
        Everyone can chat in a shared workspace; its owner and the admins change its settings.
      </p>
      <form onSubmit={create} className="mt-3 flex gap-2">
        <input
          aria-label="Name of the new shared workspace"
          placeholder="Name"
          maxLength={100}
          data-testid="shared-workspace-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          className="min-w-0 flex-1 rounded-lg border border-border bg-bg px-2 py-1 text-sm outline-none focus:border-accent"
        />
        <button type="submit" data-testid="shared-workspace-create" disabled={busy} className={primary}>
          Create shared workspace
        </button>
      </form>
      {shared && shared.length === 0 && <p className="mt-3 text-sm text-muted">No shared workspace yet.</p>}
      {shared && shared.length > 0 && (
        <ul data-testid="shared-workspaces" className="mt-3 divide-y divide-border text-sm">
          {shared.map((w) => (
            <li
              key={w.id}
              data-testid="shared-workspace"
              data-id={w.id}
              className="flex items-center justify-between py-1.5"
            >
              <span>{w.name}</span>
              <Link href={`/w/${w.id}`} className="text-accent underline">
                Settings
              </Link>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-danger">
          {error}
        </p>
      )}
    </section>
  );
}
