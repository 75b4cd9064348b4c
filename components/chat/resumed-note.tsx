// Where a reply went on after its server stopped: the steps before were kept, the one that was cut was redone.
import type { ResumeData } from "@/lib/chat-message";
import { RetryIcon } from "../ui/icons";

export function ResumedNote({ data }: { data: ResumeData }) {
  const at = new Date(data.at);
  const time = Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const why = data.reason === "instance-lost" ? "resumed on another server" : "resumed after a restart";
  return (
    <p
      data-testid="resumed-note"
      className="flex items-center gap-2 text-xs text-neutral-600 dark:text-neutral-400"
      title={`Kept ${data.afterStep} finished step${data.afterStep === 1 ? "" : "s"}; the step that was cut was done again.`}
    >
      <RetryIcon className="shrink-0" aria-hidden="true" />
      <span>
        The reply {why}
        {time ? ` at ${time}` : ""}.
      </span>
    </p>
  );
}
