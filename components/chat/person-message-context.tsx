"use client";
// What a person's message offers besides Copy, provided by the chat around the (virtualised) transcript: Edit, which
// keeps the old version as a branch, and ‹ n/N › where alternatives follow the same message.
import { createContext, useContext } from "react";
import type { BranchPoint } from "@/lib/agent/branches";

export type PersonMessageActions = {
  /** Branch points by the id of the message they are shown on. */
  branches: ReadonlyMap<string, BranchPoint>;
  /** A reply is being written: editing and switching wait. */
  busy: boolean;
  onEdit: (messageId: string, text: string) => void;
  onSwitch: (anchorId: string, ordinal: number) => void;
};

export const PersonMessageContext = createContext<PersonMessageActions | null>(null);

export const usePersonMessageActions = () => useContext(PersonMessageContext);
