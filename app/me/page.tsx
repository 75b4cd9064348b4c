import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { OwnSkillsPage } from "@/components/accounts/own-skills-page";
import { authMode } from "@/lib/auth/mode";
import { viewerOrNull } from "@/lib/auth/viewer";

export const dynamic = "force-dynamic";

// Accounts mode: the signed-in person's own skills, seen in every conversation of theirs. Not in open and token mode
// (the default workspace's skills reach every workspace there).
export default async function MePage() {
  if (authMode() !== "accounts") notFound();
  const incoming = await headers();
  const request = new Request(new URL("/me", `http://${incoming.get("host") ?? "localhost"}`), { headers: incoming });
  if ((await viewerOrNull(request))?.kind !== "user") notFound();
  return <OwnSkillsPage />;
}
