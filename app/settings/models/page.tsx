import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { ConnectionsPage } from "@/components/settings/connections-page";
import { authMode } from "@/lib/auth/mode";
import { viewerOrNull } from "@/lib/auth/viewer";

export const dynamic = "force-dynamic";

// Settings → Models & connections: the admin's in accounts mode (others get the not-found page, as on /admin); the
// one person's otherwise.
export default async function ModelsSettingsPage() {
  if (authMode() === "accounts") {
    const incoming = await headers();
    const request = new Request(new URL("/settings/models", `http://${incoming.get("host") ?? "localhost"}`), {
      headers: incoming,
    });
    const viewer = await viewerOrNull(request);
    if (viewer?.kind !== "user" || !viewer.admin) notFound();
  }
  return <ConnectionsPage />;
}
