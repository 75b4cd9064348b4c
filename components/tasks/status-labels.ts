// A task's status in words, and the status a click on its icon moves it to. Pure (the transcript's summaries use it).
import type { TaskStatus } from "@/lib/chat-message";

export const NEXT_STATUS: Record<TaskStatus, TaskStatus> = {
  pending: "in_progress",
  in_progress: "completed",
  completed: "pending",
  cancelled: "pending",
};

export const STATUS_LABEL: Record<TaskStatus, string> = {
  pending: "Pending",
  in_progress: "In progress",
  completed: "Completed",
  cancelled: "Cancelled",
};

/** The readable name of a status; an unknown one as it came. */
export const statusLabel = (status: string): string =>
  Object.hasOwn(STATUS_LABEL, status) ? STATUS_LABEL[status as TaskStatus] : status;
