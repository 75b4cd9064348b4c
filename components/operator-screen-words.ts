// The screen's own words that hold an operator's note (lib/operator-words.ts): rendered with useWordsFor, so that a
// variable to set reaches only whoever runs the server.
import { operatorNote } from "@/lib/operator-words";

/** The empty state under the demo model: connecting a real model is the operator's to do. */
export const DEMO_MODEL_WORDS = `You're talking to the offline demo model — rule-based, no network needed.${operatorNote(
  " Set OPENAI_API_KEY or OPENAI_BASE_URL to use a real one.",
  " Whoever runs this Hintline server can connect a real one.",
)}`;

/** Where the workspace budget comes from (the workspace page's budget line begins with it). */
export const BUDGET_SOURCE_WORDS = `The budget is ${operatorNote("HINTLINE_WORKSPACE_BUDGET,", "the server's setting,")}`;
