// Request schemas of the public HTTP API.
import { z } from "zod";
import { PLAN_MAX_CHARS, PLAN_VERSIONS_KEPT } from "../agent/plan-mode.ts";
import { MAX_SEARCH_QUERY_CHARS } from "../agent/search-text.ts";
import { maxReplyChars } from "../env-number.ts";
import { operatorNote } from "../operator-words.ts";
import { MAX_MESSAGE_TEXT } from "./body-limits.mjs";
import { MAX_CONVERSATION_MESSAGES, MAX_CONVERSATION_TASKS } from "./limits.ts";

export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export { MAX_MESSAGE_TEXT };

export const idSchema = z.string().regex(ID_PATTERN, { message: "must be 1–64 characters of A–Z, a–z, 0–9, _ or -" });

/**
 * A JSON object with any keys except "__proto__": a record parse would drop that key without a word (it assigns,
 * which sets a prototype), so it is refused by name first.
 */
export const jsonObjectSchema = z
  .unknown()
  .refine((v) => typeof v !== "object" || v === null || !Object.hasOwn(v, "__proto__"), {
    message: "has unknown field(s) __proto__",
  })
  .pipe(z.record(z.string(), z.unknown()));

const textPartSchema = z.object({ type: z.literal("text"), text: z.string().max(MAX_MESSAGE_TEXT) }).passthrough();

/** An attachment's shape; its kind, data URL and size are checked by lib/chat/attachments.ts. */
const filePartSchema = z.object({
  type: z.literal("file"),
  mediaType: z.string({ message: "must be a media type such as image/png" }).max(255),
  url: z.string({ message: "must be a data: URL" }),
  filename: z.string({ message: "must be a string" }).optional(),
});

export const userMessageSchema = z.object({
  id: idSchema,
  role: z.literal("user", { message: 'must be "user" (the server writes assistant and system messages)' }),
  parts: z
    .array(
      z.discriminatedUnion("type", [textPartSchema, filePartSchema], {
        message: 'must be a text or file part ("type": "text" or "file")',
      }),
      {
        message: "must be an array of text and file parts",
      },
    )
    .min(1, { message: "must contain at least one text part" })
    .max(20, { message: "must have at most 20 parts" })
    .refine((parts) => parts.some((p) => p.type === "text" && p.text.trim().length > 0), {
      message: "must contain some text",
    }),
  metadata: z.unknown().optional(),
});

const count = (n: number) => n.toLocaleString("en-US");

/** "plan" or "build"; anything else is named in the error. */
export const modeSchema = z.enum(["plan", "build"], {
  error: (issue) =>
    `must be "plan" or "build" (got ${JSON.stringify(issue.input)?.slice(0, 60) ?? String(issue.input)})`,
});

/** A plan's markdown, at most PLAN_MAX_CHARS characters (the error names the limit). */
export const planContentSchema = z
  .string({ message: "must be a string (the plan's markdown)" })
  .refine((text) => text.trim().length > 0, { message: "must not be empty" })
  .refine((text) => text.length <= PLAN_MAX_CHARS, {
    error: (issue) =>
      `is ${count(String(issue.input).length)} characters, over the plan's limit of ${count(PLAN_MAX_CHARS)}`,
  });

/** A provider/model id as GET /api/models lists them (whether this server can use it is checked where it is used). */
export const modelIdSchema = z
  .string({ message: "must be a model id (a string), e.g. anthropic/claude-sonnet-4-5" })
  .trim()
  .min(1, { message: "must not be empty" })
  .max(200)
  .regex(/^[\x21-\x7e]+$/, { message: "must be a model id without spaces, e.g. anthropic/claude-sonnet-4-5" });

export const chatRequestSchema = z.object({
  id: idSchema,
  message: userMessageSchema,
  /** The browser's IANA timezone, used when the conversation is new. */
  timezone: z.string().max(64).optional(),
  /** The mode of the conversation when this message creates it (an existing conversation keeps its own). */
  mode: modeSchema.optional(),
  /** The workspace of the conversation when this message creates it (it must exist; an existing conversation keeps its own). */
  workspaceId: idSchema.optional(),
  /** The model of the conversation when this message creates it (an existing conversation keeps its own; PATCH switches it). */
  model: modelIdSchema.optional(),
  /**
   * The id of an earlier message of the person's that this one replaces: it and everything after it are kept as an
   * alternative (a branch), and this message follows the same message it followed.
   */
  editOf: idSchema.optional(),
});

/** When a queued message reaches the agent: after the running reply's current step, or as the turn after it. */
export const queueWhenSchema = z.enum(["next-step", "after-reply"], {
  error: (issue) =>
    `must be "next-step" or "after-reply" (got ${JSON.stringify(issue.input)?.slice(0, 60) ?? String(issue.input)})`,
});

/** `POST /api/conversations/:id/queue`: a message for the running reply (a steer) or for the turn after it. */
export const queueRequestSchema = z.object({ message: userMessageSchema, when: queueWhenSchema });

/** `PATCH /api/conversations/:id/queue/:messageId`: the queued message's new text (its attachments stay). */
export const queueEditSchema = z.object({
  text: z
    .string({ message: "must be the message's new text (a string)" })
    .max(MAX_MESSAGE_TEXT, { message: `must be at most ${MAX_MESSAGE_TEXT.toLocaleString("en-US")} characters` })
    .refine((text) => text.trim().length > 0, { message: "must contain some text" }),
});

/**
 * Continue (`POST /api/chat { id, continue: true }`): the conversation's last reply, stopped before its end, goes on
 * in place; no message of the person's is added.
 */
export const continueRequestSchema = z
  .object({
    id: idSchema,
    continue: z.literal(true),
    timezone: z.string().max(64).optional(),
  })
  .strict();

/** Where the sidebar's search looks (`GET /api/conversations?q=…&scope=all`): every workspace the person sees. */
export const searchScopeSchema = z.enum(["all"]);

/** The sidebar's search (`GET /api/conversations?q=`). */
export const searchQuerySchema = z
  .string()
  .max(MAX_SEARCH_QUERY_CHARS, { message: `must be at most ${MAX_SEARCH_QUERY_CHARS} characters` });

export const switchBranchSchema = z
  .object({
    /** The message the alternatives follow ("" when they start the conversation). */
    anchorId: z.union([idSchema, z.literal("")]),
    ordinal: z.number().int().min(1).max(10_000),
  })
  .strict();

/** true or false, nothing else ("true", 1 and null are refused, naming what was sent). */
export const flagSchema = z.boolean({
  error: (issue) => `must be true or false (got ${JSON.stringify(issue.input)?.slice(0, 60) ?? String(issue.input)})`,
});

export const patchConversationSchema = z
  .object({
    title: z.string().trim().min(1, { message: "must not be empty" }).max(200).optional(),
    settings: jsonObjectSchema.optional(),
    mode: modeSchema.optional(),
    /** The person's edit of the plan: stored as a new version. */
    plan: z.object({ content: planContentSchema }).strict().optional(),
    /** A provider/model id (GET /api/models lists them); null: back to the default model. */
    model: modelIdSchema.nullable().optional(),
    /** Pinned conversations come first in the list. */
    pinned: flagSchema.optional(),
    /** Archived conversations are left out of the list (GET ?archived=true lists them) and still found by search. */
    archived: flagSchema.optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message: "send title, settings, mode, model, plan, pinned and/or archived",
  });

// Text and reasoning parts are read as strings everywhere (model input, token counts, the page).
const importedPartSchema = z
  .object({ type: z.string().min(1).max(100) })
  .passthrough()
  .refine((part) => !["text", "reasoning"].includes(part.type) || typeof part.text === "string", {
    message: "must be a string",
    path: ["text"],
  });

/**
 * An imported message holds no more text than chat lets it have: a person's message what one chat message may hold,
 * an assistant's what one reply may stream (its character ceiling).
 */
const importedMessageSchema = z
  .object({
    id: idSchema,
    role: z.enum(["user", "assistant"]),
    parts: z.array(importedPartSchema).max(10_000),
    metadata: jsonObjectSchema.optional(),
  })
  .superRefine((message, context) => {
    let chars = 0;
    for (const part of message.parts) if (typeof part.text === "string") chars += part.text.length;
    const [limit, what] =
      message.role === "user"
        ? [MAX_MESSAGE_TEXT, "a person's message may hold (as in chat)"]
        : [maxReplyChars(), `one reply may hold${operatorNote(" (HINTLINE_MAX_REPLY_CHARS)", "")}`];
    if (chars <= limit) return;
    context.addIssue({
      code: "custom",
      path: ["parts"],
      message: `message "${message.id}" holds ${count(chars)} characters of text, more than the ${count(limit)} ${what}`,
    });
  });

const importedTaskSchema = z.object({
  id: z.string().regex(/^[1-9][0-9]{0,8}$/, { message: "must be a positive integer id" }),
  subject: z.string().min(1).max(500),
  description: z.string().max(10_000).default(""),
  status: z.enum(["pending", "in_progress", "completed", "cancelled"]),
  owner: z.string().max(200).optional(),
  blocks: z.array(z.string()).default([]),
  blockedBy: z.array(z.string()).default([]),
  metadata: jsonObjectSchema.default({}),
});

const importedPlanVersionSchema = z.object({
  content: planContentSchema,
  author: z.enum(["agent", "person"]).default("agent"),
  createdAt: z.iso.datetime({ offset: true }).optional(),
});

const importedConversationFields = {
  id: idSchema.optional(),
  title: z.string().max(200).default("Imported chat"),
  settings: jsonObjectSchema.default({}),
  messages: z.array(importedMessageSchema).max(MAX_CONVERSATION_MESSAGES),
  tasks: z.array(importedTaskSchema).max(MAX_CONVERSATION_TASKS).default([]),
  mode: modeSchema.default("build"),
  planVersions: z.array(importedPlanVersionSchema).max(PLAN_VERSIONS_KEPT).default([]),
  /** The conversation's chosen model (absent or null: the default); one this server cannot use is refused. */
  model: modelIdSchema.nullable().optional(),
  /** The person's organising of the list, kept by an import (absent: neither). */
  pinned: flagSchema.default(false),
  archived: flagSchema.default(false),
};

/** Subagents a conversation exports with it (two levels: a child and its children), each a conversation of its own. */
const MAX_IMPORTED_AGENTS = 100;
const importedAgentOf = <C extends z.ZodType>(conversation: C) =>
  z.object({
    agentKey: z.string().regex(/^agent:[a-z0-9][a-z0-9-]{0,63}:[1-9][0-9]{0,5}$/, {
      message: 'must be an agent key like "agent:general-purpose:1"',
    }),
    status: z.enum(["running", "done", "error", "stopped"]),
    run: jsonObjectSchema.default({}),
    conversation,
  });
const uniqueKeys = (agents: Array<{ agentKey: string }>) =>
  new Set(agents.map((a) => a.agentKey)).size === agents.length;
const importedAgentsOf = <C extends z.ZodType>(conversation: C) =>
  z
    .array(importedAgentOf(conversation))
    .max(MAX_IMPORTED_AGENTS)
    .default([])
    .refine(uniqueKeys, { message: "two subagents have the same agentKey" });
const importedGrandchildren = importedAgentsOf(z.object(importedConversationFields));
const importedChildren = importedAgentsOf(z.object({ ...importedConversationFields, agents: importedGrandchildren }));

export const importSchema = z.object({
  version: z.literal(1, { message: "must be 1 (the export format version)" }),
  conversation: z.object({ ...importedConversationFields, agents: importedChildren }),
});

/** A conversation of an import, the top one or a subagent's (whose `agents` are its own children). */
export type ImportedConversation = Omit<ImportBody["conversation"], "agents"> & { agents?: ImportedAgent[] };
export type ImportedAgent = {
  agentKey: string;
  status: "running" | "done" | "error" | "stopped";
  run: Record<string, unknown>;
  conversation: ImportedConversation;
};

export const signInSchema = z.object({ token: z.string({ message: "must be a string" }) });

export type ImportBody = z.infer<typeof importSchema>;
