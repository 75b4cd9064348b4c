"use client";
// The signed-in person's own page (accounts mode): their usage against their budget, and their own skills, which reach
// every conversation of theirs, in every workspace, and win over a workspace's skill of the same name. No one else sees
// them.
import { SkillsSection } from "../workspace/skills-section";
import { AccountPageFrame } from "./account-page-frame";
import { OwnUsage } from "./own-usage";

const INTRO =
  " Your own skills reach every conversation of yours, in every workspace (shared ones too), and win over a workspace's skill of the same name. No one else sees them. Your own agent definitions are kept the same way, through /api/me/agents.";

export function OwnSkillsPage() {
  return (
    <AccountPageFrame title="Your skills" testId="own-skills-page" width="3xl">
      <OwnUsage />
      <SkillsSection endpoint="/api/me/skills" intro={INTRO} />
    </AccountPageFrame>
  );
}
