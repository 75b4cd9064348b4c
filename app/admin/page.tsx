import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { AdminConsole } from "@/components/accounts/admin-console";
import { authMode } from "@/lib/auth/mode";
import { viewerOrNull } from "@/lib/auth/viewer";

export const dynamic = "force-dynamic";

// Accounts mode's admin page: users, invitations, shared workspaces. Anyone else gets the not-found page (the admin
// API answers them as an unknown route too).
export default async function AdminPage() {
  if (authMode() !== "accounts") notFound();
  const incoming = await headers();
  const request = new Request(new URL("/admin", `http://${incoming.get("host") ?? "localhost"}`), {
    headers: incoming,
  });
  const viewer = await viewerOrNull(request);
  if (viewer?.kind !== "user" || !viewer.admin) notFound();
  return <AdminConsole selfId={viewer.userId} />;
}
