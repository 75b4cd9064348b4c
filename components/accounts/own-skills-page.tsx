"use client";
// The signed-in person's own skills (accounts mode): they reach every conversation of theirs, in every workspace, and
// win over a workspace's skill of the same name. No one else sees them.
import Link from "next/link";
import { SkillsSection } from "../workspace/skills-section";
import { UserMenu } from "./user-menu";

const INTRO =
  " Your own skills reach every conversation of yours, in every workspace (shared ones too), and win over a workspace's skill of the same name. No one else sees them. Your own agent definitions are kept the same way, through /api/me/agents.";

export function OwnSkillsPage() {
  return (
    <div className="min-h-dvh">
      <header className="flex h-14 items-center gap-3 border-b border-border px-4">
        <h1 className="flex-1 text-sm font-semibold">Hintline · Your skills</h1>
        <Link href="/" data-testid="own-skills-back" className="text-sm text-accent underline">
          Back to the chat
        </Link>
        <UserMenu />
      </header>
      <main data-testid="own-skills-page" className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-6">
        <SkillsSection endpoint="/api/me/skills" intro={INTRO} />
      </main>
    </div>
  );
}
