"use client";
// The latest progress of the running MCP calls, by call id, from live `data-tool-progress` chunks (never stored): the
// call's tool row shows it next to the elapsed time. Only the newest few calls are kept.
import { create } from "zustand";
import type { ToolProgressData } from "../chat-message.ts";

const KEPT_CALLS = 20;

type ToolProgressState = {
  byCall: Record<string, ToolProgressData>;
  receive: (data: ToolProgressData) => void;
};

const finite = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

export const useToolProgressStore = create<ToolProgressState>((set) => ({
  byCall: {},
  receive: (data) => {
    if (!data || typeof data.toolCallId !== "string") return;
    const entry: ToolProgressData = {
      toolCallId: data.toolCallId,
      progress: finite(data.progress),
      total: finite(data.total),
      message: typeof data.message === "string" ? data.message : undefined,
    };
    set((state) => {
      const others = Object.entries(state.byCall).filter(([id]) => id !== entry.toolCallId);
      return { byCall: Object.fromEntries([...others.slice(-(KEPT_CALLS - 1)), [entry.toolCallId, entry]]) };
    });
  },
}));

const number = (value: number) => value.toLocaleString("en-US", { maximumFractionDigits: 2 });

/** "3 of 5 · Indexing files", "42", or "" when the server said nothing to show. */
export function progressText(data: ToolProgressData | undefined): string {
  if (!data) return "";
  const amount =
    data.progress === undefined
      ? ""
      : data.total !== undefined
        ? `${number(data.progress)} of ${number(data.total)}`
        : number(data.progress);
  return [amount, data.message ?? ""].filter(Boolean).join(" · ");
}
