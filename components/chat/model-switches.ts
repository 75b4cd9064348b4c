// Where a conversation's model changed, read from what is stored: each reply's `metadata.model`. The marker goes
// before the person's message that the new model answered (or before the reply itself when no message of theirs
// precedes it), so it survives a reload and an export/import like the replies do. Replies without a model (imported
// from before models were recorded) neither start nor end a switch.
import type { ChatMessage } from "@/lib/chat-message";

export type ModelSwitch = { from: string; to: string };

/** The switches by the id of the message the marker goes before. */
export function modelSwitches(messages: readonly ChatMessage[]): Map<string, ModelSwitch> {
  const switches = new Map<string, ModelSwitch>();
  let previous: string | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    const model = message.role === "assistant" ? message.metadata?.model : undefined;
    if (!model) continue;
    if (previous !== undefined && model !== previous) {
      const asked = messages[i - 1]?.role === "user" ? messages[i - 1]! : message;
      switches.set(asked.id, { from: previous, to: model });
    }
    previous = model;
  }
  return switches;
}
