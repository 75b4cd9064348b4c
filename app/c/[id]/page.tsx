import { notFound } from "next/navigation";
import { AppShell } from "@/components/app-shell";
import { Chat } from "@/components/chat/chat";
import { AgentPanel } from "@/components/agents/agent-panel";
import { AgentTranscriptDrawer } from "@/components/agents/agent-transcript-drawer";
import { ContextMeter } from "@/components/context/context-meter";
import { PlanPanel } from "@/components/plan/plan-panel";
import { TaskPanel } from "@/components/tasks/task-panel";
import { modelInfoFor } from "@/lib/ai/providers/choice";
import { ID_PATTERN } from "@/lib/api/schemas";
import { checkConversationPage } from "@/lib/auth/page-viewer";
import { findConversationView } from "@/lib/chat/conversation-list";

export const dynamic = "force-dynamic";

const NO_AGENTS: never[] = [];

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!ID_PATTERN.test(id)) notFound();
  await checkConversationPage(id);
  const view = await findConversationView(id);
  const model = view?.model ?? modelInfoFor();
  return (
    <AppShell
      activeId={id}
      workspaceId={view?.workspaceId}
      title={view?.title ?? "New chat"}
      model={model}
      stored={!!view}
      panel={
        <>
          <ContextMeter conversationId={id} initial={view?.contextUsage ?? null} />
          <TaskPanel conversationId={id} initialTasks={view?.tasks ?? []} />
          <AgentPanel conversationId={id} initial={view?.agents ?? NO_AGENTS} />
          <PlanPanel
            conversationId={id}
            exists={!!view}
            initial={{ mode: view?.mode ?? "build", plan: view?.plan ?? null, planVersions: view?.planVersions ?? [] }}
          />
        </>
      }
    >
      <Chat
        key={id}
        id={id}
        initialMessages={view?.messages ?? []}
        initialBranches={view?.branches ?? []}
        model={model}
      />
      <AgentTranscriptDrawer />
    </AppShell>
  );
}
