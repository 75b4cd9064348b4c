"use client";
// The users of accounts mode: disable or enable one (disabling ends their sessions at once), make or remove an admin,
// see each one's usage against their budget and set it.
import { useCallback, useEffect, useState } from "react";
import type { BudgetView, UsageView } from "@/lib/chat/budgets";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { AdminBudgetForm, type BudgetPatch } from "./admin-budget-form";
import { button, section } from "./admin-styles";
import { BudgetUsage } from "./budget-usage";

type User = {
  id: string;
  email: string;
  name: string;
  admin: boolean;
  disabled: boolean;
  createdAt: string;
  budget: BudgetView;
  usage: UsageView;
};
type UserPatch = { disabled?: boolean; admin?: boolean; budget?: BudgetPatch };

export function AdminUsers({ selfId }: { selfId: string }) {
  const [users, setUsers] = useState<User[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
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
  const edit = async (user: User, patch: UserPatch) => {
    setBusy(user.id);
    setError(null);
    try {
      const updated = await apiFetch<User>(`/api/admin/users/${encodeURIComponent(user.id)}`, {
        method: "PATCH",
        body: JSON.stringify(patch),
      });
      setUsers((list) => list?.map((u) => (u.id === updated.id ? { ...u, ...updated } : u)) ?? null);
      if (patch.budget) setEditing(null);
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
                <th className="py-1.5 pr-3 font-medium">Usage and budget</th>
                <th className="py-1.5 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <UserRow
                  key={user.id}
                  user={user}
                  self={user.id === selfId}
                  busy={busy === user.id}
                  editing={editing === user.id}
                  onEdit={(patch) => void edit(user, patch)}
                  onEditing={(open) => setEditing(open ? user.id : null)}
                />
              ))}
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

/** One user's row, and under it their budget form while it is open. */
function UserRow({
  user,
  self,
  busy,
  editing,
  onEdit,
  onEditing,
}: {
  user: User;
  self: boolean;
  busy: boolean;
  editing: boolean;
  onEdit: (patch: UserPatch) => void;
  onEditing: (open: boolean) => void;
}) {
  return (
    <>
      <tr
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
        <td className="py-2 pr-3 text-xs">
          <BudgetUsage budget={user.budget} usage={user.usage} testId="user-usage" />
        </td>
        <td className="flex gap-1.5 py-2">
          <button
            type="button"
            data-testid="user-toggle-disabled"
            disabled={busy || self}
            title={self ? "You cannot disable yourself" : undefined}
            onClick={() => onEdit({ disabled: !user.disabled })}
            className={button}
          >
            {user.disabled ? "Enable" : "Disable"}
          </button>
          <button
            type="button"
            data-testid="user-toggle-admin"
            disabled={busy || self}
            title={self ? "Another admin can take away your admin role" : undefined}
            onClick={() => onEdit({ admin: !user.admin })}
            className={button}
          >
            {user.admin ? "Remove admin" : "Make admin"}
          </button>
          <button
            type="button"
            data-testid="user-edit-budget"
            aria-expanded={editing}
            disabled={busy}
            onClick={() => onEditing(!editing)}
            className={button}
          >
            Set budget
          </button>
        </td>
      </tr>
      {editing && (
        <tr data-testid="user-budget-row">
          <td colSpan={7}>
            <AdminBudgetForm
              email={user.email}
              budget={user.budget}
              busy={busy}
              onSave={(budget) => onEdit({ budget })}
              onCancel={() => onEditing(false)}
            />
          </td>
        </tr>
      )}
    </>
  );
}
