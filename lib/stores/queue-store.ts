"use client";
// The open conversation's queue (GET|POST /api/conversations/:id/queue, PATCH|DELETE …/queue/:messageId): messages the
// person sent while a reply ran, shown above the composer until the agent takes them. Loaded again on every change
// event of the conversation, so another tab's queue shows too. A failure is said in words (`failureText`).
import { create } from "zustand";
import { apiFetch, failureText } from "./api-client.ts";

export type QueueWhen = "next-step" | "after-reply";
export type QueuedItem = {
  id: string;
  when: QueueWhen;
  position: number;
  status: string;
  message: { id: string; parts: Array<{ type: string; text?: string }> };
  replyId?: string;
};
type QueueFile = { type: "file"; mediaType: string; filename: string; url: string };

type QueueState = {
  conversationId: string | null;
  items: QueuedItem[];
  error: string | null;
  reload: (conversationId: string) => Promise<void>;
  /** Queues a message; resolves to what the server did with it ("delivered": it started a turn at once), or null. */
  add: (
    conversationId: string,
    text: string,
    files: QueueFile[],
    when: QueueWhen,
  ) => Promise<"queued" | "delivered" | null>;
  edit: (id: string, text: string) => Promise<boolean>;
  cancel: (id: string) => Promise<boolean>;
};

const newId = () => (globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`).replace(/[^\w-]/g, "");

export const useQueueStore = create<QueueState>((set, get) => {
  const base = (id: string) => `/api/conversations/${encodeURIComponent(id)}/queue`;
  const guard = async <T>(action: () => Promise<T>, conversationId: string | null): Promise<T | null> => {
    try {
      const result = await action();
      set({ error: null });
      return result;
    } catch (error) {
      set({ error: failureText(error) });
      return null;
    } finally {
      if (conversationId) await get().reload(conversationId);
    }
  };
  return {
    conversationId: null,
    items: [],
    error: null,
    reload: async (conversationId) => {
      if (get().conversationId !== conversationId) set({ conversationId, items: [], error: null });
      const view = await apiFetch<{ queued: QueuedItem[] }>(base(conversationId)).catch(() => null);
      if (view && get().conversationId === conversationId) set({ items: view.queued });
    },
    add: async (conversationId, text, files, when) => {
      const message = { id: newId(), role: "user", parts: [{ type: "text", text }, ...files] };
      const answer = await guard(
        () =>
          apiFetch<{ queued: QueuedItem[] }>(base(conversationId), {
            method: "POST",
            body: JSON.stringify({ message, when }),
          }),
        conversationId,
      );
      return answer?.queued[0]?.status === "delivered" ? "delivered" : answer ? "queued" : null;
    },
    edit: async (id, text) => {
      const conversationId = get().conversationId;
      if (!conversationId) return false;
      const done = await guard(
        () =>
          apiFetch(`${base(conversationId)}/${encodeURIComponent(id)}`, {
            method: "PATCH",
            body: JSON.stringify({ text }),
          }),
        conversationId,
      );
      return done !== null;
    },
    cancel: async (id) => {
      const conversationId = get().conversationId;
      if (!conversationId) return false;
      set({ items: get().items.filter((item) => item.id !== id) });
      const done = await guard(
        () => apiFetch(`${base(conversationId)}/${encodeURIComponent(id)}`, { method: "DELETE" }).then(() => true),
        conversationId,
      );
      return done !== null;
    },
  };
});
