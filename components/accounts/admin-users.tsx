"use client";
// The users of accounts mode: disable or enable one (disabling ends their sessions at once), make or remove an admin.
import { useCallback, useEffect, useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { button, section } from "./admin-styles";

type User = { id: string; email: string; name: string; admin: boolean; disabled: boolean; createdAt: string };

export function AdminUsers({ selfId }: { selfId: string }) {
  const [users, setUsers] = useState<User[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setUsers(await apiFetch<User[]>("/api/admin/users"));
    } catch (e) {
      setError(failureText(e));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const edit = async (user: User, patch: { disabled?: boolean; admin?: boolean }) => {
    setBusy(user.id);
    setError(null);
    try {
      const updated = await apiFetch<User>(`/api/admin/users/${encodeURIComponent(user.id)}`, {
        method: "PATCH",
        body: JSON.stringify(patch),
      });
      setUsers((list) => list?.map((u) => (u.id === updated.id ? { ...u, ...updated } : u)) ?? null);
    } catch (e) {
      setError(failureText(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <section aria-labelledby="users-heading" className={section}>
      <h2 id="users-heading" className="font-semibold">
        Users
      </h2>
      <p className="mt-1 text-sm text-muted">
        Admins manage users and shared workspaces; they do not see others' conversations.
      </p>
      {users === null && !error && <p className="mt-3 text-sm text-muted">Loading…</p>}
      {users && (
        <div className="mt-3 overflow-x-auto">
          <table data-testid="users-table" className="w-full text-left text-sm">
            <thead className="text-xs text-muted">
              <tr>
                <th className="py-1.5 pr-3 font-medium">Email</th>
                <th className="py-1.5 pr-3 font-medium">Name</th>
                <th className="py-1.5 pr-3 font-medium">Admin</th>
                <th className="py-1.5 pr-3 font-medium">Disabled</th>
                <th className="py-1.5 pr-3 font-medium">Created</th>
                <th className="py-1.5 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => {
                const self = user.id === selfId;
                return (
                  <tr
                    key={user.id}
                    data-testid="user-row"
                    data-email={user.email}
                    data-admin={user.admin}
                    data-disabled={user.disabled}
                    className="border-t border-border"
                  >
                    <td className="py-2 pr-3">{user.email}</td>
                    <td className="py-2 pr-3">{user.name}</td>
                    <td className="py-2 pr-3">{user.admin ? "Yes" : "No"}</td>
                    <td className="py-2 pr-3">{user.disabled ? "Yes" : "No"}</td>
                    <td className="py-2 pr-3 whitespace-nowrap">
                      <time dateTime={user.createdAt}>{new Date(user.createdAt).toLocaleDateString()}</time>
                    </td>
                    <td className="flex gap-1.5 py-2">
                      <button
                        type="button"
                        data-testid="user-toggle-disabled"
                        disabled={busy === user.id || self}
                        title={self ? "You cannot disable yourself" : undefined}
                        onClick={() => void edit(user, { disabled: !user.disabled })}
                        className={button}
                      >
                        {user.disabled ? "Enable" : "Disable"}
                      </button>
                      <button
                        type="button"
                        data-testid="user-toggle-admin"
                        disabled={busy === user.id || self}
                        title={self ? "Another admin can take away your admin role" : undefined}
                        onClick={() => void edit(user, { admin: !user.admin })}
                        className={button}
                      >
                        {user.admin ? "Remove admin" : "Make admin"}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-danger">
          {error}
        </p>
      )}
    </section>
  );
}
