// Below a compression chip, once per window size: the compression could not bring the context under the trigger, so
// the next one waits for the conversation to grow; what fills the window and what the person can do about it.
import type { CompressionStuck } from "@/lib/chat-message";
import { stuckNoticeText } from "@/lib/agent/compression-hold";

export function CompressionStuckNotice({ stuck }: { stuck: CompressionStuck }) {
  const { what, todo } = stuckNoticeText(stuck);
  return (
    <section
      data-testid="compression-stuck"
      aria-label="The context window is nearly full"
      className="w-full rounded-lg border border-border px-3 py-2 text-xs text-muted"
    >
      <h4 className="mb-1 font-medium text-fg">The context window is nearly full</h4>
      <p>{what}</p>
      <p className="mt-1">To make room:</p>
      <ul className="list-disc pl-4">
        {todo.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
