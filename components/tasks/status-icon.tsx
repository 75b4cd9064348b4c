// A task's status as an icon.
import type { TaskStatus } from "@/lib/chat-message";

export function StatusIcon({ status }: { status: TaskStatus }) {
  const common = { width: 16, height: 16, viewBox: "0 0 16 16" } as const;
  switch (status) {
    case "completed":
      return (
        <svg aria-hidden="true" {...common} className="text-accent">
          <circle cx="8" cy="8" r="7" fill="currentColor" />
          <path
            d="M4.8 8.2l2.1 2.1 4.3-4.5"
            stroke="var(--accent-fg)"
            strokeWidth="1.7"
            fill="none"
            strokeLinecap="round"
          />
        </svg>
      );
    case "in_progress":
      return (
        <svg aria-hidden="true" {...common} className="text-accent">
          <circle cx="8" cy="8" r="6.3" stroke="currentColor" strokeWidth="1.5" fill="none" />
          <path d="M8 1.7a6.3 6.3 0 0 1 0 12.6z" fill="currentColor" />
        </svg>
      );
    case "cancelled":
      return (
        <svg aria-hidden="true" {...common} className="text-faint">
          <circle cx="8" cy="8" r="6.3" stroke="currentColor" strokeWidth="1.5" fill="none" />
          <path d="M5.5 5.5l5 5M10.5 5.5l-5 5" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      );
    default:
      return (
        <svg aria-hidden="true" {...common} className="text-muted">
          <circle cx="8" cy="8" r="6.3" stroke="currentColor" strokeWidth="1.5" fill="none" />
        </svg>
      );
  }
}
