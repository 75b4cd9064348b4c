"use client";
// The conversation: streams replies with useChat (./use-chat.ts, the browser's own, not the AI SDK's), persists nothing
// itself (the server does), and keeps the conversation list in step. A reply runs on the server until it ends or is
// stopped: the page resumes it on load (and when the conversation is opened again), and another tab's messages arrive
// through the change events.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { BranchPoint } from "@/lib/agent/branches";
import type { ChatMessage, ModelInfo } from "@/lib/chat-message";
import { titleFrom } from "@/lib/conversation-title";
import { apiFetch } from "@/lib/stores/api-client";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import { usePlanStore } from "@/lib/stores/plan-store";
import { useTasksStore } from "@/lib/stores/tasks-store";
import { useQueueStore } from "@/lib/stores/queue-store";
import { useToolProgressStore } from "@/lib/stores/tool-progress-store";
import { useTranscriptStore } from "@/lib/stores/transcript-store";
import { useUsageStore } from "@/lib/stores/usage-store";
import { useModelChoiceStore } from "@/lib/stores/model-choice-store";
import { useWorkspacesStore } from "@/lib/stores/workspaces-store";
import { useShortcuts } from "../shortcuts/use-shortcuts";
import { AlertIcon, RetryIcon } from "../ui/icons";
import { ModeBanner } from "../plan/mode-banner";
import { AgentEndNotices } from "../agents/agent-end-notices";
import { ChatTransport } from "./chat-transport";
import { Composer, type OutgoingFile, type QueueWhen } from "./composer";
import { EmptyState } from "./empty-state";
import { errorInWords } from "./error-words";
import { MessageList } from "./message-list";
import { PersonMessageContext } from "./person-message-context";
import { QueuedMessages } from "./queued-messages";
import { useChat } from "./use-chat";
import { useLiveConversation } from "./use-live-conversation";
import { warnFailure } from "@/lib/client-log";
import { browserTimeZone } from "@/lib/stores/browser-zone";

export function Chat({
  id,
  initialMessages,
  initialBranches = [],
  model,
}: {
  id: string;
  initialMessages: ChatMessage[];
  initialBranches?: BranchPoint[];
  model: ModelInfo;
}) {
  const touch = useConversationsStore((s) => s.touch);
  const refresh = useConversationsStore((s) => s.refresh);
  const receiveTasks = useTasksStore((s) => s.receive);
  const receiveUsage = useUsageStore((s) => s.receive);
  const receivePlan = usePlanStore((s) => s.receivePlan);
  const receiveToolProgress = useToolProgressStore((s) => s.receive);
  const mode = usePlanStore((s) => s.mode);
  const setMode = usePlanStore((s) => s.setMode);
  const created = usePlanStore((s) => s.created);
  const outgoing = usePlanStore((s) => s.outgoing);
  const takeOutgoing = usePlanStore((s) => s.takeOutgoing);
  // When this tab last saw a reply to the end: the change event of that same reply brings nothing new.
  const finishedAt = useRef(0);
  const transport = useMemo(
    () =>
      new ChatTransport({
        api: "/api/chat",
        prepareSendMessagesRequest: ({ id: chatId, messages, body }) => {
          // The mode matters only when this message creates the conversation (an existing one keeps its own); so does
          // the workspace, sent only then (an existing conversation stays in its own, even if that one was switched
          // away), and noted: the switcher leaves this conversation when another workspace is chosen.
          const creating = messages.length <= 1;
          const workspaceId = useWorkspacesStore.getState().currentId;
          if (creating) useWorkspacesStore.getState().noteStarted(chatId, workspaceId);
          return {
            body: {
              id: chatId,
              message: messages.at(-1),
              timezone: browserTimeZone(),
              mode: usePlanStore.getState().mode,
              ...(creating ? { workspaceId } : {}),
              // The model picked in the header before the first message: the conversation is created with it.
              ...(creating && useModelChoiceStore.getState().pending[chatId]
                ? { model: useModelChoiceStore.getState().pending[chatId] }
                : {}),
              // An edit: the message it replaces (kept, with what followed it, as a branch).
              ...(typeof body?.editOf === "string" ? { editOf: body.editOf } : {}),
            },
          };
        },
        // Resuming replays the live reply from its first chunk (204 when none is live).
        prepareReconnectToStreamRequest: ({ id: chatId }) => ({
          api: `/api/conversations/${encodeURIComponent(chatId)}/stream`,
        }),
      }),
    [],
  );
  const [branches, setBranches] = useState(initialBranches);
  // After an edit, the branch points are read again once its reply is stored.
  const branchesStale = useRef(false);
  const reloadBranches = useCallback(async () => {
    branchesStale.current = false;
    const view = await apiFetch<{ branches?: BranchPoint[] }>(`/api/conversations/${encodeURIComponent(id)}`).catch(
      (error) => {
        warnFailure("reading the branch points failed")(error);
        return null;
      },
    );
    if (view?.branches) setBranches(view.branches);
  }, [id]);
  const { messages, sendMessage, status, stop, error, regenerate, clearError, setMessages, resumeStream } =
    useChat<ChatMessage>({
      id,
      messages: initialMessages,
      transport,
      // Only a conversation whose reply is still being written has anything to resume (a new one is not stored yet).
      resume: initialMessages.at(-1)?.metadata?.status === "streaming",
      onFinish: () => {
        // A reply that ends with messages queued after it is followed by their turn: that is news, however soon.
        const queue = useQueueStore.getState();
        finishedAt.current = queue.conversationId === id && queue.items.length > 0 ? 0 : Date.now();
        void refresh().catch(warnFailure("reloading the conversation list failed"));
        if (branchesStale.current) void reloadBranches();
      },
      onData: (part) => {
        if (part.type === "data-tasks") receiveTasks(part.data);
        if (part.type === "data-context-usage") receiveUsage(part.data);
        if (part.type === "data-plan") receivePlan(part.data);
        if (part.type === "data-tool-progress") receiveToolProgress(part.data);
      },
    });

  // A compression divider stored by "Compress now" joins the transcript at once.
  const added = useTranscriptStore((s) => s.added);
  const takeAdded = useTranscriptStore((s) => s.take);
  useEffect(() => {
    if (!added.some((a) => a.conversationId === id)) return;
    const fresh = takeAdded(id);
    setMessages((current) => [...current, ...fresh.filter((m) => !current.some((c) => c.id === m.id))]);
  }, [added, id, takeAdded, setMessages]);

  const busy = status === "submitted" || status === "streaming";
  const last = messages.at(-1);
  const persistedError = !busy && !error && last?.role === "assistant" && last.metadata?.status === "error";
  const errorText = error?.message ?? (persistedError ? last?.metadata?.error : undefined);

  const stopping = useRef<Promise<unknown>>(Promise.resolve());
  const send = useCallback(
    (text: string, files?: OutgoingFile[]) => {
      touch({ id, title: titleFrom(text) });
      clearError();
      created();
      // After a Stop, the next message waits until the stopped reply is stored (or it would find it still running).
      void stopping.current.then(() => sendMessage(files?.length ? { text, files } : { text }));
    },
    [id, sendMessage, touch, clearError, created],
  );
  // While a reply runs: the message waits in the conversation's queue (after-reply) or steers the reply (next-step).
  const queue = useCallback(
    async (text: string, files: OutgoingFile[], when: QueueWhen) => {
      const done = await useQueueStore.getState().add(id, text, files, when);
      // No reply was running any more: the message started its turn, which this tab follows.
      if (done === "delivered") await resumeStream();
    },
    [id, resumeStream],
  );
  const toggleMode = useCallback(
    () => void setMode(usePlanStore.getState().mode === "plan" ? "build" : "plan"),
    [setMode],
  );
  useShortcuts({ "toggle-mode": toggleMode });

  // "Approve and build" asks the agent to start; while a reply runs, its next step hears of the switch anyway.
  useEffect(() => {
    if (!outgoing) return;
    const text = takeOutgoing();
    if (text && !busy) send(text);
  }, [outgoing, takeOutgoing, busy, send]);

  useLiveConversation({ id, status, finishedAt, setMessages, resumeStream });

  // Stop ends the reply on the server, wherever it runs, and this tab's own request; the server's closing
  // "incomplete" status then never reaches this tab: mark it here.
  const stopReply = useCallback(() => {
    stopping.current = apiFetch(`/api/conversations/${encodeURIComponent(id)}/stop`, { method: "POST" }).catch(
      warnFailure("Stop was not accepted"),
    );
    void stop().then(() =>
      setMessages((current) => {
        const last = current.at(-1);
        if (last?.role !== "assistant") return current;
        return [...current.slice(0, -1), { ...last, metadata: { ...last.metadata, status: "incomplete" } }];
      }),
    );
  }, [id, stop, setMessages]);

  // Regenerate (and Retry after an error): the earlier reply is kept as a version ‹ n/N › of the new one.
  const retry = useCallback(() => {
    clearError();
    branchesStale.current = true;
    void regenerate();
  }, [clearError, regenerate]);
  // Continue: the stopped reply goes on in place (no message of the person's): the transport answers the resume with
  // the continuation's stream (components/chat/chat-transport.ts).
  const continueReply = useCallback(() => {
    clearError();
    void stopping.current.then(() => {
      transport.continueNext();
      return resumeStream();
    });
  }, [clearError, transport, resumeStream]);

  // Edit: the transcript ends before the edited message, whose new version is sent with what it replaces.
  const editMessage = useCallback(
    (messageId: string, text: string) => {
      clearError();
      branchesStale.current = true;
      setMessages((current) => {
        const at = current.findIndex((m) => m.id === messageId);
        return at < 0 ? current : current.slice(0, at);
      });
      void stopping.current.then(() => sendMessage({ text }, { body: { editOf: messageId } }));
    },
    [clearError, setMessages, sendMessage],
  );
  // ‹ n/N ›: the server makes that alternative the active one and answers the conversation as it now is.
  const switchBranch = useCallback(
    async (anchorId: string, ordinal: number) => {
      // A refusal (a reply started meanwhile, in another tab) leaves the transcript as it is.
      const view = await apiFetch<{ messages: ChatMessage[]; branches: BranchPoint[] }>(
        `/api/conversations/${encodeURIComponent(id)}/branches`,
        {
          method: "POST",
          body: JSON.stringify({ anchorId, ordinal }),
        },
      ).catch((error) => {
        warnFailure("switching the branch was refused")(error);
        return null;
      });
      if (!view) return;
      setMessages(view.messages);
      setBranches(view.branches);
    },
    [id, setMessages],
  );
  const personActions = useMemo(
    () => ({
      branches: new Map(branches.map((b) => [b.messageId, b])),
      busy,
      onEdit: editMessage,
      onSwitch: (a: string, o: number) => void switchBranch(a, o),
    }),
    [branches, busy, editMessage, switchBranch],
  );

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {messages.length === 0 ? (
        <EmptyState model={model} onPick={send} />
      ) : (
        <PersonMessageContext.Provider value={personActions}>
          <MessageList
            messages={messages}
            streaming={busy}
            contextWindow={model.contextWindow}
            onRegenerate={retry}
            onContinue={continueReply}
          />
        </PersonMessageContext.Provider>
      )}
      {errorText && (
        <div className="mx-auto w-full max-w-3xl px-3 sm:px-6">
          <div
            role="alert"
            data-testid="chat-error"
            className="mb-2 flex items-start gap-3 rounded-xl border border-danger/30 bg-danger-bg px-4 py-3 text-sm text-danger"
          >
            <AlertIcon className="mt-0.5 shrink-0" />
            <p className="flex-1">{errorInWords(error ?? errorText)}</p>
            <button
              type="button"
              data-testid="retry-button"
              onClick={retry}
              className="flex items-center gap-1 rounded-lg border border-danger/40 px-2.5 py-1 font-medium hover:bg-danger/10"
            >
              <RetryIcon /> Retry
            </button>
          </div>
        </div>
      )}
      <AgentEndNotices conversationId={id} />
      <ModeBanner />
      <QueuedMessages conversationId={id} stored={messages.some((m) => m.role === "assistant")} />
      <Composer
        busy={busy}
        onSend={send}
        onQueue={(text, files, when) => void queue(text, files, when)}
        onStop={stopReply}
        mode={mode}
        onToggleMode={toggleMode}
      />
    </div>
  );
}
