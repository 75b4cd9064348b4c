import { describe, expect, it } from "vitest";
import type { AgentSummary } from "../chat-message.ts";
import { endedNotices } from "./subagent-ends.ts";

const child = (conversationId: string, status: AgentSummary["status"], label?: string): AgentSummary => ({
  agentKey: `agent:general-purpose:${conversationId}`,
  agentId: "general-purpose",
  ...(label ? { label } : {}),
  conversationId,
  status,
  startedAt: "2026-01-01T10:00:00.000Z",
  ...(status === "running" ? {} : { endedAt: "2026-01-01T10:01:00.000Z" }),
  tokens: 0,
});

describe("endedNotices", () => {
  it("says in words which running children ended, by their whole label, else their agent", () => {
    const label = "Research the three release notes and what changed in the API between them";
    const before = [
      child("1", "running", label),
      child("2", "running"),
      child("3", "running", "x"),
      child("4", "done"),
    ];
    const after = [child("1", "done", label), child("2", "error"), child("3", "stopped", "x"), child("4", "done")];
    expect(endedNotices(before, after)).toEqual([
      { conversationId: "1", text: `“${label}” finished` },
      { conversationId: "2", text: "general-purpose ended with an error" },
      { conversationId: "3", text: "“x” was stopped" },
    ]);
  });

  it("says so of a child that started and ended between two looks, nothing of one that had ended or still runs", () => {
    expect(endedNotices([], [child("1", "done")])).toEqual([{ conversationId: "1", text: "general-purpose finished" }]);
    expect(endedNotices([child("1", "done")], [child("1", "done")])).toEqual([]);
    expect(endedNotices([child("1", "running")], [child("1", "running")])).toEqual([]);
    expect(endedNotices([child("1", "running")], [])).toEqual([]);
  });
});
