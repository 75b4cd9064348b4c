"use client";
// Whether the person reading this screen runs the server (open and token mode: the one person; accounts mode: an
// admin): the root layout knows it when it renders, so the words are right from the first paint. Text with an
// operator's note in it (lib/operator-words.ts) reads its variable only to them.
import { createContext, type ReactNode, useContext } from "react";
import { wordsFor } from "@/lib/operator-words";

const ReadsOperatorWords = createContext(false);

export function OperatorWordsProvider({ operator, children }: { operator: boolean; children: ReactNode }) {
  return <ReadsOperatorWords value={operator}>{children}</ReadsOperatorWords>;
}

/** `message` as the person reading the screen may read it. */
export function useWordsFor(): (message: string) => string {
  const operator = useContext(ReadsOperatorWords);
  return (message) => wordsFor(message, operator);
}
