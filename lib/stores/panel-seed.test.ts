// The side panel is drawn more than once (a column, and a drawer below 1280 px that mounts at each opening); each
// drawing seeds the stores with the page's view. A second seeding with the same view must keep what came live since.
import { beforeEach, describe, expect, it } from "vitest";
import type { ContextUsage, Task } from "../chat-message.ts";
import { useTasksStore } from "./tasks-store.ts";
import { useUsageStore } from "./usage-store.ts";

const task = (id: string, subject: string): Task => ({ id, subject, description: "", status: "pending" }) as Task;
const usage = (used: number) => ({ used }) as unknown as ContextUsage;

describe("seeding the panel's stores from the page", () => {
  beforeEach(() => {
    useTasksStore.setState({ conversationId: null, tasks: [], seededFrom: null });
    useUsageStore.setState({ conversationId: null, usage: null, seededFrom: null });
  });

  it("keeps live tasks when the panel is drawn again from the same page, and takes a new page's list", () => {
    const fromPage: Task[] = [];
    useTasksStore.getState().seed("c1", fromPage);
    useTasksStore.getState().receive([task("1", "pack the boxes"), task("2", "book a van")]);
    useTasksStore.getState().seed("c1", fromPage);
    expect(useTasksStore.getState().tasks.map((t) => t.subject)).toEqual(["pack the boxes", "book a van"]);

    const refreshed = [task("1", "pack the boxes")];
    useTasksStore.getState().seed("c1", refreshed);
    expect(useTasksStore.getState().tasks).toBe(refreshed);
    useTasksStore.getState().seed("c2", refreshed);
    expect(useTasksStore.getState().conversationId).toBe("c2");
  });

  it("keeps a live context figure when the meter is drawn again, also over a page that had none", () => {
    useUsageStore.getState().seed("c1", null);
    useUsageStore.getState().receive(usage(1200));
    useUsageStore.getState().seed("c1", null);
    expect(useUsageStore.getState().usage).toEqual(usage(1200));

    const fromPage = usage(500);
    useUsageStore.getState().seed("c2", fromPage);
    useUsageStore.getState().receive(usage(900));
    useUsageStore.getState().seed("c2", fromPage);
    expect(useUsageStore.getState().usage).toEqual(usage(900));
    useUsageStore.getState().seed("c1", null);
    expect(useUsageStore.getState().usage).toBeNull();
  });
});
