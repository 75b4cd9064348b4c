// The inspector's view of a conversation's state sources: each enabled source of its workspace with its latest reading
// in this process (none is read for it), and the State hints the next call would be told from them — decided as a
// step decides, against what the conversation's kept tail told. A failure reads as the agent was told it: the person's
// words (lib/operator-words.ts).
import { combineTold, NOTHING_TOLD, toldIn } from "../agent/hints/told.ts";
import type { Settings } from "../agent/settings.ts";
import { decideStateHints } from "../agent/state-sources.ts";
import type { ChatMessage } from "../chat-message.ts";
import { now } from "../clock.ts";
import { wordsFor } from "../operator-words.ts";
import { latestStateReadings } from "./state-reader.ts";

export type StateSourcesView = {
  sources: Array<{ name: string; status: "read" | "failing" | "not read yet"; at?: string; reason?: string }>;
  /** The State hints the next call would be told (none with hints switched off). */
  next: Array<{ source: string; text: string }>;
};

export async function stateSourcesView(
  workspaceId: string,
  tail: readonly ChatMessage[],
  settings: Settings,
  contextWindow: number,
): Promise<StateSourcesView> {
  const sources = await latestStateReadings(workspaceId);
  const told = tail.reduce((t, m) => combineTold(t, toldIn(m, settings.injection.injectionSource)), NOTHING_TOLD);
  const next = settings.injection.injectRuntimeState
    ? decideStateHints({ sources, told: told.state, now: now(), contextWindow })
    : [];
  return {
    sources: sources.map(({ name, reading }) =>
      !reading
        ? { name, status: "not read yet" as const }
        : reading.ok
          ? { name, status: "read" as const, at: reading.readAt }
          : { name, status: "failing" as const, at: reading.since, reason: wordsFor(reading.reason, false) },
    ),
    next: next.map((hint) => ({ source: hint.source.sublabel, text: hint.text })),
  };
}
