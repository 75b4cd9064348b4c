import { describe, expect, it } from "vitest";
import type { Task } from "@/lib/chat-message";
import { groupTasks } from "./task-groups";

const task = (id: string, status: Task["status"]): Task => ({
  id,
  subject: id,
  description: "",
  status,
  blocks: [],
  blockedBy: [],
  metadata: {},
  createdAt: "",
  updatedAt: "",
});

describe("groupTasks", () => {
  it("folds runs of three or more completed tasks and keeps shorter runs and open tasks as rows", () => {
    const rows = groupTasks([
      task("1", "completed"),
      task("2", "completed"),
      task("3", "completed"),
      task("4", "pending"),
      task("5", "completed"),
      task("6", "in_progress"),
    ]);
    expect(rows.map((r) => (r.kind === "fold" ? `fold:${r.tasks.length}` : r.task.id))).toEqual([
      "fold:3",
      "4",
      "5",
      "6",
    ]);
    expect(rows[1]).toMatchObject({ kind: "task", index: 3 });
  });
});
