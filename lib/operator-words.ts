// Words only the operator can act on — an environment variable to set, a file to fix — kept apart inside a message,
// so that the message is told to whoever reads it: the operator (open and token mode: the one person; accounts mode:
// an admin) reads the variable and what to do; anyone else reads who can fix it. The message is made once, where
// the failure is; `wordsFor` renders it as it leaves the server (an API error, a reply's stored error).

const NOTE = /\u27e6([^\u27e6\u27e7|]*)\|([^\u27e6\u27e7]*)\u27e7/g;

/** What a person who cannot change the server reads instead (a note's words carry their own leading space). */
export const ASK_THE_OPERATOR = " Ask whoever runs this Hintline server to set it up.";

/**
 * A note inside a message, its words written as they join the text around it (spaces and punctuation included):
 * `forOperator` to the operator, `forPerson` (by default: ask the operator; "": nothing) to anyone else. Neither
 * may hold "⟦" or "⟧", nor the operator's words "|".
 */
export function operatorNote(forOperator: string, forPerson: string = ASK_THE_OPERATOR): string {
  return `\u27e6${forOperator}|${forPerson}\u27e7`;
}

/** The message as the reader may read it: each note's operator words, or its person words (or none). */
export function wordsFor(message: string, operator: boolean): string {
  return message.replace(NOTE, (_, forOperator: string, forPerson: string) => (operator ? forOperator : forPerson));
}

/** Text from outside (a provider's error body) that cannot open or close a note. */
export const withoutNoteMarks = (text: string) => text.replace(/[\u27e6\u27e7]/g, "");

/** The message's first `max` characters, cut before a note rather than through one (whose marks would then show). */
export function cutOutsideNotes(message: string, max: number): string {
  const cut = message.slice(0, max);
  const open = cut.lastIndexOf("\u27e6");
  return open > cut.lastIndexOf("\u27e7") ? cut.slice(0, open) : cut;
}
