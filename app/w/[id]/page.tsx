import { notFound } from "next/navigation";
import { AppShell } from "@/components/app-shell";
import { WorkspaceSettings } from "@/components/workspace/workspace-settings";
import { modelInfoFor } from "@/lib/ai/providers/choice";
import { ApiError } from "@/lib/api/errors";
import { ID_PATTERN } from "@/lib/api/schemas";
import { workspacePageAccess } from "@/lib/auth/page-viewer";
import { workspaceWithTokens } from "@/lib/chat/workspace-tokens";

export const dynamic = "force-dynamic";

// A workspace's settings: instructions, memory, knowledge files and skills.
export default async function WorkspacePage({ params }: { params: Promise<{ id: string }> }) {
  const { id: named } = await params;
  if (!ID_PATTERN.test(named)) notFound();
  const { id, editable } = await workspacePageAccess(named);
  const workspace = await workspaceWithTokens(id).catch((error) => {
    if (error instanceof ApiError && error.code === "not_found") notFound();
    throw error;
  });
  return (
    <AppShell workspaceId={id} title={`Workspace · ${workspace.name}`} model={modelInfoFor()}>
      <WorkspaceSettings key={id} initial={workspace} editable={editable} />
    </AppShell>
  );
}
