// A task's status in words, and the status a click on its tick moves it to. Pure (the transcript's summaries use it).
import type { TaskStatus } from "@/lib/chat-message";

/** A tick completes a task, whatever its status, or reopens a completed one. */
export const tickedStatus = (status: TaskStatus): TaskStatus => (status === "completed" ? "pending" : "completed");

export const STATUS_LABEL: Record<TaskStatus, string> = {
  pending: "Pending",
  in_progress: "In progress",
  completed: "Completed",
  cancelled: "Cancelled",
};

/** The readable name of a status; an unknown one as it came. */
export const statusLabel = (status: string): string =>
  Object.hasOwn(STATUS_LABEL, status) ? STATUS_LABEL[status as TaskStatus] : status;
