// Hostile and malformed requests to every route of the HTTP API, against a real server with a seeded database. Each
// must answer its documented 4xx as `{ error: { code, message } }` JSON whose message names the problem, carry no
// stack trace, and leave every table of the database exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat } from "../support/chat-client.ts";
import {
  type DatabaseSnapshot,
  expectApiError,
  jsonRequest,
  settledSnapshot,
  snapshotDatabase,
  userMessage,
} from "./helpers.ts";

type Body = string | object | (() => string | object);
type Row = {
  name: string;
  method: string;
  path: string;
  body?: Body;
  type?: string;
  status: number;
  message: RegExp;
  code?: string;
};

const C = "/api/conversations";
const S = `${C}/seed`;
const JSON_TYPE = "application/json";
const FORM = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data; boundary=x";
const CODES: Record<number, string> = {
  400: "bad_request",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
};
const long = (n: number, c = "a") => c.repeat(n);
let replyId = "";

const req = (
  name: string,
  method: string,
  path: string,
  status: number,
  message: RegExp,
  body?: Body,
  type?: string,
): Row => ({
  name: `${method} ${path.replace(/(.)\1{9,}/g, (run, c) => `${c}×${run.length}`)} — ${name}`,
  method,
  path,
  status,
  message,
  body,
  type,
});
const send = (message: object, id = "seed") => ({ id, message: { ...userMessage("m-bad", "hi"), ...message } });
const chatRow = (name: string, body: Body, message: RegExp, status = 400, type?: string) =>
  req(name, "POST", "/api/chat", status, message, body, type);
const patchRow = (name: string, body: Body, message: RegExp, status = 400, type?: string) =>
  req(name, "PATCH", S, status, message, body, type);
const settingsRow = (name: string, settings: unknown, message: RegExp) =>
  patchRow(`settings: ${name}`, { settings }, message);
const taskRow = (name: string, body: Body, message: RegExp, status = 400, type?: string) =>
  req(name, "POST", `${S}/tasks`, status, message, body, type);
const taskEditRow = (name: string, taskId: string, body: Body, message: RegExp, status = 400) =>
  req(name, "PATCH", `${S}/tasks/${taskId}`, status, message, body);
const conversationWith = (fields: object) => ({ version: 1, conversation: { messages: [], ...fields } });
const importRow = (name: string, body: Body, message: RegExp, status = 400, type?: string) =>
  req(name, "POST", `${C}/import`, status, message, body, type);
const signInRow = (name: string, body: Body, message: RegExp, status = 400, type?: string) =>
  req(name, "POST", "/api/auth/sign-in", status, message, body, type);
const notAllowed = (method: string, path: string) =>
  req("a method the route does not serve", method, path, 405, new RegExp(`${method} is not allowed`));
const badId = /conversation id: must be 1–64 characters/;
const WD = "/api/workspaces/default";
const K = `${WD}/knowledge`;
const workspaceRow = (name: string, body: Body, message: RegExp, status = 400, type?: string) =>
  req(name, "POST", "/api/workspaces", status, message, body, type);
const memoryRow = (name: string, body: Body, message: RegExp, status = 400) =>
  req(name, "POST", `${WD}/memory`, status, message, body);
const skillRow = (name: string, body: Body, message: RegExp, status = 400) =>
  req(name, "POST", `${WD}/skills`, status, message, body);
const skill = { name: "weekly-report", description: "Writes the weekly report", instructions: "# Steps" };
/** A knowledge upload: a text body, whose 400s are not about JSON. */
const uploadRow = (
  name: string,
  path: string,
  body: Body,
  message: RegExp,
  status = 400,
  type = "text/plain",
): Row => ({
  ...req(name, "PUT", `${K}/${path}`, status, message, body, type),
  code: CODES[status],
});
const badTaskId = /task id: must be a positive integer/;

const rows: Row[] = [
  chatRow("malformed JSON", '{"id": "seed", "message": {', /not valid JSON/),
  chatRow("an empty body", "", /body is empty/),
  chatRow("no message", { id: "seed" }, /message: .*must be an object/),
  chatRow("a body that is an array", [send({})], /body: .*must be an object/),
  chatRow("a numeric conversation id", { ...send({}), id: 7 }, /Invalid id: .*must be text/),
  chatRow("role assistant", send({ role: "assistant" }), /message\.role: must be "user"/),
  chatRow("role system", send({ role: "system" }), /message\.role: must be "user"/),
  chatRow("role assistant in a new conversation", send({ role: "assistant" }, "brand-new"), /message\.role/),
  chatRow("parts not an array", send({ parts: { type: "text", text: "hi" } }), /message\.parts: must be an array/),
  chatRow("no parts", send({ parts: [] }), /message\.parts: must contain at least one text part/),
  chatRow(
    "21 parts",
    send({ parts: Array(21).fill({ type: "text", text: "hi" }) }),
    /message\.parts: must have at most 20 parts/,
  ),
  chatRow(
    "only a file part",
    send({ parts: [{ type: "file", url: "data:text/plain;base64,aGk=", mediaType: "text/plain" }] }),
    /message\.parts: must contain some text/,
  ),
  chatRow(
    "a file part whose data URL is not base64",
    send({
      parts: [
        { type: "text", text: "hi" },
        { type: "file", url: "data:text/plain,hi", mediaType: "text/plain" },
      ],
    }),
    /message\.parts\.1: the attachment has a data URL that is not well-formed base64/,
  ),
  chatRow(
    "an image part",
    send({
      parts: [
        { type: "text", text: "hi" },
        { type: "image", image: "x" },
      ],
    }),
    /parts\.1\.type/,
  ),
  chatRow(
    "a text and a reasoning part",
    send({
      parts: [
        { type: "text", text: "hi" },
        { type: "reasoning", text: "x" },
      ],
    }),
    /parts\.1\.type/,
  ),
  chatRow("empty text", send({ parts: [{ type: "text", text: "" }] }), /message\.parts: must contain some text/),
  chatRow("blank text", send({ parts: [{ type: "text", text: "  \n " }] }), /message\.parts: must contain some text/),
  chatRow(
    "a text of 100,001 characters",
    send({ parts: [{ type: "text", text: long(100_001) }] }),
    /parts\.0\.text: must be at most 100,000 characters/,
  ),
  chatRow("a numeric timezone", { ...send({}), timezone: 5 }, /timezone: .*must be text/),
  chatRow("a conversation id with a slash", send({}, "a/b"), /Invalid id: must be 1–64/),
  chatRow("a conversation id of ..", send({}, ".."), /Invalid id: must be 1–64/),
  chatRow("a conversation id with a NUL byte", send({}, "seed\u0000"), /Invalid id: must not contain a NUL/),
  chatRow("a conversation id of 65 characters", send({}, long(65)), /Invalid id: must be 1–64/),
  chatRow("a message id with ..", send({ id: "../t1" }), /Invalid message\.id: must be 1–64/),
  chatRow("a message id of 65 characters", send({ id: long(65, "m") }), /Invalid message\.id: must be 1–64/),
  // 100,000 characters at 3 bytes and 16 KiB of JSON, plus one attachment of 16 KiB as base64 and its JSON (this
  // server's HINTLINE_MAX_ATTACHMENT*): 340,280 bytes.
  chatRow(
    "a 400 KB body",
    send({ parts: [{ type: "text", text: long(400_000, "x") }] }),
    /1 attachment of 16\.0 KB .*at most 340,280 bytes of JSON; this body is larger/,
    413,
  ),
  chatRow("the id of a reply as the message id", () => send({ id: replyId }), /already used by a reply/, 409),
  chatRow(
    "a JSON body sent as text/plain",
    send({ id: "m-plain" }),
    /Content-Type: application\/json.*text\/plain/,
    415,
    "text/plain",
  ),
  chatRow("a form body", "id=seed&message=hi", /Content-Type: application\/json.*x-www-form-urlencoded/, 415, FORM),
  notAllowed("GET", "/api/chat"),
  notAllowed("POST", C),
  notAllowed("DELETE", C),

  req("an unknown conversation", "GET", `${C}/nope`, 404, /Conversation nope does not exist/),
  req("an unknown conversation", "PATCH", `${C}/nope`, 404, /Conversation nope does not exist/, { title: "x" }),
  req("an unknown conversation", "DELETE", `${C}/nope`, 404, /Conversation nope does not exist/),
  req("an id with a slash", "GET", `${C}/a%2Fb`, 400, badId),
  req("an id of ../seed", "DELETE", `${C}/%2E%2E%2Fseed`, 400, badId),
  req("an id of ../../etc/passwd", "GET", `${C}/..%2F..%2Fetc%2Fpasswd`, 400, badId),
  req("an id of a NUL byte", "GET", `${C}/%00`, 400, badId),
  req("an id of 65 characters", "GET", `${C}/${long(65)}`, 400, badId),
  req("an id of 5,000 characters", "DELETE", `${C}/${long(5_000)}`, 400, badId),
  req("an id with broken percent-encoding", "GET", `${C}/%E0%A4%A`, 400, /percent-encoding/),
  patchRow("an empty title", { title: "" }, /title: must not be empty/),
  patchRow("a blank title", { title: "   " }, /title: must not be empty/),
  patchRow("a numeric title", { title: 5 }, /title: .*must be text/),
  patchRow("a title of 201 characters", { title: long(201) }, /title: .*200/),
  patchRow("no fields", {}, /send title, settings, mode, model, plan, pinned and\/or archived/),
  patchRow("a model id with spaces", { model: "my model" }, /model: must be a model id without spaces/),
  patchRow("an unknown mode", { mode: "draft" }, /mode: must be "plan" or "build" \(got "draft"\)/),
  patchRow(
    "a plan over 50,000 characters",
    { plan: { content: long(50_001) } },
    /plan\.content: is 50,001 characters, over the plan's limit of 50,000/,
  ),
  patchRow("an empty plan", { plan: { content: " " } }, /plan\.content: must not be empty/),
  req("a mode for an unknown conversation", "PATCH", `${C}/nope`, 404, /Conversation nope does not exist/, {
    mode: "plan",
  }),
  patchRow("an unknown field", { colour: "red" }, /unknown field\(s\) colour/),
  patchRow("a __proto__ field", '{"__proto__": {"title": "x"}}', /unknown field\(s\) __proto__/),
  patchRow("malformed JSON", '{"title":', /not valid JSON/),
  patchRow("a JSON body sent as text/plain", { title: "Plain" }, /Content-Type: application\/json/, 415, "text/plain"),
  patchRow("a body over 256 KB", { title: "x", pad: long(300_000) }, /over the 262144-byte limit/, 413),
  notAllowed("PUT", S),
  settingsRow(
    "an unknown timezone",
    { injection: { timezone: "Mars/Olympus" } },
    /settings\.injection\.timezone is not a known IANA timezone/,
  ),
  settingsRow("a numeric timezone", { injection: { timezone: 1 } }, /settings\.injection\.timezone/),
  settingsRow(
    "a template without {runtime_state}",
    { injection: { template: "no placeholder" } },
    /injection\.template must contain/,
  ),
  settingsRow(
    "a buffer ratio at the trigger ratio",
    { injection: { contextBufferRatio: 0.7 } },
    /injection\.contextBufferRatio must be smaller/,
  ),
  settingsRow(
    "a reserve ratio over the trigger ratio",
    { context: { reserveRatio: 0.9 } },
    /context\.reserveRatio must be smaller/,
  ),
  settingsRow("a trigger ratio of 1.5", { context: { triggerRatio: 1.5 } }, /context\.triggerRatio .*0\.9/),
  settingsRow(
    "a trigger ratio as a string",
    { context: { triggerRatio: "0.5" } },
    /context\.triggerRatio .*must be a number/,
  ),
  settingsRow("a negative time interval", { injection: { timeInterval: -1 } }, /injection\.timeInterval must be >= 0/),
  settingsRow(
    "a fractional context window",
    { context: { contextWindow: 1000.5 } },
    /context\.contextWindow must be a whole number/,
  ),
  settingsRow(
    "a time format without a date",
    { injection: { timeFormat: "HH:mm" } },
    /injection\.timeFormat does not read back as the time it wrote/,
  ),
  settingsRow(
    "an extra field with a bad key",
    { injection: { extraFields: { "bad key": "x" } } },
    /extraFields\.bad key key must match/,
  ),
  settingsRow(
    "an extra field value of 2,001 characters",
    { injection: { extraFields: { note: long(2_001) } } },
    /extraFields\.note must be at most 2,000 characters/,
  ),
  settingsRow(
    "33 extra fields",
    { injection: { extraFields: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`f${i}`, "x"])) } },
    /at most 32 extra fields/,
  ),
  settingsRow(
    "an unknown injection field",
    { injection: { colour: "red" } },
    /settings\.injection has unknown field\(s\) colour/,
  ),
  settingsRow("an unknown section", { theme: { dark: true } }, /settings has unknown field\(s\) theme/),
  settingsRow("an injection section that is a string", { injection: "on" }, /settings\.injection .*must be an object/),
  settingsRow("a memory of 200,001 characters", { prompt: { memory: long(200_001) } }, /settings\.prompt\.memory/),
  patchRow("settings that are an array", { settings: [1] }, /settings: .*must be an object/),
  patchRow(
    "a settings section named __proto__",
    '{"settings": {"__proto__": {"injection": {"timeInterval": 9}}}}',
    /Invalid settings: has unknown field\(s\) __proto__/,
  ),
  patchRow(
    "a settings field named __proto__",
    '{"settings": {"injection": {"__proto__": {"timeInterval": 9}}}}',
    /settings\.injection has unknown field\(s\) __proto__/,
  ),

  req("an unknown conversation", "GET", `${C}/nope/export`, 404, /Conversation nope does not exist/),
  req("a path-like id", "GET", `${C}/..%2Fseed/export`, 400, badId),
  notAllowed("POST", `${S}/export`),
  req("an unknown conversation", "GET", `${C}/nope/context`, 404, /Conversation nope does not exist/),
  req("an id of 65 characters", "GET", `${C}/${long(65)}/context?hints=false`, 400, badId),
  notAllowed("PUT", `${S}/context`),
  req("an unknown conversation", "POST", `${C}/nope/compact`, 404, /Conversation nope does not exist/),
  req("a path-like id", "POST", `${C}/seed%2F..%2Fx/compact`, 400, badId),
  notAllowed("GET", `${S}/compact`),
  req(
    "a branch switch of an unknown conversation",
    "POST",
    `${C}/nope/branches`,
    404,
    /Conversation nope does not exist/,
    { anchorId: "", ordinal: 1 },
  ),
  req(
    "a branch switch to an alternative that does not exist",
    "POST",
    `${S}/branches`,
    404,
    /Alternative 7 after the start does not exist/,
    { anchorId: "", ordinal: 7 },
  ),
  req("a branch switch with ordinal 0", "POST", `${S}/branches`, 400, /ordinal/, { anchorId: "", ordinal: 0 }),
  req("a branch switch with a path-like anchor", "POST", `${S}/branches`, 400, /anchorId/, {
    anchorId: "../x",
    ordinal: 1,
  }),
  req("a branch switch with an extra field", "POST", `${S}/branches`, 400, /Unrecognized key|extra/, {
    anchorId: "",
    ordinal: 1,
    extra: true,
  }),
  notAllowed("GET", `${S}/branches`),
  chatRow(
    "an edit of a message that does not exist",
    { ...send({ id: "m-edit-1" }), editOf: "nope" },
    /Message nope does not exist/,
    404,
  ),
  chatRow("an edit with a path-like message id", { ...send({ id: "m-edit-2" }), editOf: "../x" }, /editOf/),
  req("a memory with a repeated entry", "PATCH", WD, 400, /entry 2 repeats entry 1/, {
    memory: "Likes tea\n LIKES  tea",
  }),
  req("a memory that is not text", "PATCH", WD, 400, /memory: must be a string/, { memory: ["Likes tea"] }),

  req("the tasks of an unknown conversation", "GET", `${C}/nope/tasks`, 404, /Conversation nope does not exist/),
  req("a task in an unknown conversation", "POST", `${C}/nope/tasks`, 404, /Conversation nope does not exist/, {
    subject: "x",
  }),
  req("a task in a path-like conversation", "POST", `${C}/%2E%2E%2Fseed/tasks`, 400, badId, { subject: "x" }),
  taskRow("an empty subject", { subject: "" }, /subject: must not be empty/),
  taskRow("a blank subject", { subject: "   " }, /subject: must not be empty/),
  taskRow("no subject", { description: "x" }, /subject: .*must be text/),
  taskRow("a numeric subject", { subject: 5 }, /subject: .*must be text/),
  taskRow("a subject of 501 characters", { subject: long(501) }, /subject: .*500/),
  taskRow(
    "a description of 10,001 characters",
    { subject: "x", description: long(10_001) },
    /description: must be at most 10,000 characters/,
  ),
  taskRow("an unknown status", { subject: "x", status: "done" }, /status: must be one of "pending"/),
  taskRow("blocks on unknown ids", { subject: "x", blocks: ["99"] }, /unknown field\(s\) blocks/),
  taskRow("metadata that is an array", { subject: "x", metadata: [1] }, /metadata: .*must be an object/),
  taskRow(
    "metadata with a __proto__ key",
    '{"subject": "x", "metadata": {"__proto__": {"a": 1}}}',
    /Invalid metadata: has unknown field\(s\) __proto__/,
  ),
  taskRow("a null body", "null", /body: .*must be an object/),
  taskRow(
    "a multipart body",
    "--x\r\nContent-Disposition: form-data; name=subject\r\n\r\nx\r\n--x--",
    /Content-Type: application\/json/,
    415,
    MULTIPART,
  ),
  notAllowed("DELETE", `${S}/tasks`),

  taskEditRow("a fractional id", "1.5", { status: "completed" }, badTaskId),
  taskEditRow("a word as the id", "abc", { status: "completed" }, badTaskId),
  taskEditRow("id 0", "0", { status: "completed" }, badTaskId),
  taskEditRow("an unknown id", "99", { status: "completed" }, /Task 99 does not exist/, 404),
  taskEditRow("an empty subject", "1", { subject: "" }, /subject: must not be empty/),
  taskEditRow("an unknown status", "1", { status: "finished" }, /status: must be one of/),
  taskEditRow("blockedBy on unknown ids", "1", { blockedBy: ["42"] }, /unknown field\(s\) blockedBy/),
  taskEditRow("no fields", "1", {}, /send at least one field to change/),
  taskEditRow("a negative position", "1", { position: -1 }, /position: must be at least 0/),
  taskEditRow("a fractional position", "1", { position: 1.5 }, /position: must be a whole number/),
  taskEditRow("a numeric owner", "1", { owner: 7 }, /owner: .*must be text/),
  req("a task of an unknown conversation", "PATCH", `${C}/nope/tasks/1`, 404, /Conversation nope does not exist/, {
    status: "completed",
  }),
  req("task -1", "DELETE", `${S}/tasks/-1`, 400, badTaskId),
  req("task 1/../2", "DELETE", `${S}/tasks/1%2F..%2F2`, 400, badTaskId),
  req("a task id of 5,000 digits", "DELETE", `${S}/tasks/${long(5_000, "9")}`, 400, badTaskId),
  req("an unknown task", "DELETE", `${S}/tasks/99`, 404, /Task 99 does not exist/),
  notAllowed("GET", `${S}/tasks/1`),

  importRow("malformed JSON", '{"version": 1,', /not valid JSON/),
  importRow("no version", { conversation: { messages: [] } }, /version: must be 1/),
  importRow("a future version", { version: 2, conversation: { messages: [] } }, /version: must be 1/),
  importRow("the version as a string", { version: "1", conversation: { messages: [] } }, /version: must be 1/),
  importRow("a null conversation", { version: 1, conversation: null }, /conversation: .*must be an object/),
  importRow(
    "settings with a __proto__ key",
    '{"version": 1, "conversation": {"messages": [], "settings": {"__proto__": {}}}}',
    /conversation\.settings: has unknown field\(s\) __proto__/,
  ),
  importRow(
    "messages not an array",
    conversationWith({ messages: "hello" }),
    /conversation\.messages: .*must be a list/,
  ),
  importRow(
    "a system message",
    conversationWith({ messages: [{ id: "a", role: "system", parts: [] }] }),
    /messages\.0\.role/,
  ),
  importRow(
    "a text part without text",
    conversationWith({ messages: [{ id: "a", role: "user", parts: [{ type: "text" }] }] }),
    /parts\.0\.text: must be/,
  ),
  importRow(
    "duplicate message ids",
    conversationWith({ messages: [userMessage("a", "x"), userMessage("a", "y")] }),
    /duplicate message id a/,
  ),
  importRow(
    "a message id with a slash",
    conversationWith({ messages: [userMessage("a/b", "x")] }),
    /messages\.0\.id: must be 1–64/,
  ),
  importRow("a conversation id of ..", conversationWith({ id: ".." }), /conversation\.id: must be 1–64/),
  req(
    "invalid settings, applied",
    "POST",
    `${C}/import?settings=apply`,
    400,
    /conversation\.settings\.injection\.timezone is not a known IANA timezone/,
    conversationWith({ settings: { injection: { timezone: "Mars/Olympus" } } }),
  ),
  importRow(
    "a task with a word as its id",
    conversationWith({ tasks: [{ id: "one", subject: "x", status: "pending" }] }),
    /tasks\.0\.id: must be a positive integer/,
  ),
  importRow(
    "a task with an unknown status",
    conversationWith({ tasks: [{ id: "1", subject: "x", status: "done" }] }),
    /tasks\.0\.status/,
  ),
  importRow(
    "a task blocked by a task the import does not hold",
    conversationWith({
      tasks: [
        { id: "1", subject: "x", status: "pending" },
        { id: "2", subject: "y", status: "pending", blockedBy: ["1", "7"] },
      ],
    }),
    /conversation\.tasks\.1\.blockedBy: task 7 is not in the import/,
  ),
  importRow(
    "duplicate task ids",
    conversationWith({ tasks: [1, 1].map(() => ({ id: "1", subject: "x", status: "pending" })) }),
    /duplicate task id/,
  ),
  importRow(
    "20,001 messages",
    () =>
      conversationWith({
        messages: Array.from({ length: 20_001 }, (_, i) => ({ id: `m${i}`, role: "user", parts: [] })),
      }),
    /conversation\.messages: must have at most 20,000 items/,
  ),
  importRow(
    "a 33 MB body",
    () => conversationWith({ messages: [userMessage("a", long(33 * 1024 * 1024, "x"))] }),
    /over the 33554432-byte limit/,
    413,
  ),
  importRow(
    "a JSON body sent as text/plain",
    conversationWith({}),
    /Content-Type: application\/json.*text\/plain/,
    415,
    "text/plain",
  ),
  notAllowed("GET", `${C}/import`),

  notAllowed("POST", "/api/model"),
  notAllowed("POST", "/api/models"),
  signInRow("malformed JSON", '{"token":', /not valid JSON/),
  signInRow("a numeric token", { token: 42 }, /token: must be a string/),
  signInRow("no token", {}, /token: must be a string/),
  signInRow("a multipart body", "--x--", /Content-Type: application\/json.*multipart\/form-data/, 415, MULTIPART),
  signInRow("a body over 16 KiB", { token: long(300_000) }, /over the 16384-byte limit/, 413),
  notAllowed("GET", "/api/auth/sign-in"),

  chatRow(
    "an unknown workspace",
    { ...send({}, "brand-new"), workspaceId: "nope" },
    /Workspace nope does not exist/,
    404,
  ),
  chatRow(
    "a malformed workspace id",
    { ...send({}, "brand-new"), workspaceId: "a b" },
    /workspaceId: must be 1–64 characters/,
  ),
  chatRow(
    "a first message naming a model no provider here serves",
    { ...send({}, "brand-new"), model: "anthropic/claude-sonnet-4-5" },
    /Invalid model: .*ANTHROPIC_API_KEY/,
  ),
  chatRow(
    "a malformed model id",
    { ...send({}, "brand-new"), model: "a b" },
    /model: must be a model id without spaces/,
  ),
  importRow(
    "a model no provider here serves",
    conversationWith({ model: "google/gemini-2.5-pro" }),
    /Invalid conversation\.model: .*GOOGLE_GENERATIVE_AI_API_KEY/,
  ),
  req("conversations of an unknown workspace", "GET", `${C}?workspaceId=nope`, 404, /Workspace nope does not exist/),
  req(
    "conversations of a malformed workspace id",
    "GET",
    `${C}?workspaceId=a%20b`,
    400,
    /workspaceId: must be 1–64 characters/,
  ),
  workspaceRow("malformed JSON", '{"name":', /not valid JSON/),
  workspaceRow("no name", {}, /name: must be a string/),
  workspaceRow("an empty name", { name: "   " }, /name: must not be empty/),
  workspaceRow("a taken name", { name: "default" }, /"default" already exists/, 409),
  workspaceRow("a 65-character name", { name: long(65) }, /over the name limit of 64/),
  workspaceRow("a name with a line break", { name: "a\nb" }, /control characters or line breaks/),
  workspaceRow(
    "instructions over 50,000 characters",
    { name: "big", instructions: long(50_001) },
    /over the instructions limit of 50,000/,
  ),
  workspaceRow("an unknown field", { name: "x", memory: "smuggled" }, /unknown field\(s\) memory/),
  workspaceRow("a form body", "name=x", /Content-Type: application\/json/, 415, FORM),
  req("renaming default", "PATCH", WD, 400, /default workspace cannot be renamed/, { name: "mine" }),
  req("an empty patch", "PATCH", WD, 400, /send name, instructions, memory and\/or settings/, {}),
  req(
    "a workspace switch that is not true or false",
    "PATCH",
    WD,
    400,
    /settings\.memory\.fromCompression: must be true or false/,
    { settings: { memory: { fromCompression: "yes" } } },
  ),
  req("deleting default", "DELETE", WD, 409, /default workspace cannot be deleted/),
  req("an unknown workspace", "GET", "/api/workspaces/nope", 404, /Workspace nope does not exist/),
  req("a malformed workspace id", "GET", "/api/workspaces/a%20b", 400, /workspace id: must be 1–64 characters/),
  req("editing an unknown workspace", "PATCH", "/api/workspaces/nope", 404, /Workspace nope does not exist/, {
    instructions: "x",
  }),
  req("deleting an unknown workspace", "DELETE", "/api/workspaces/nope", 404, /Workspace nope does not exist/),
  notAllowed("PUT", "/api/workspaces"),
  memoryRow(
    "a duplicate after normalising case and spaces",
    { text: "  prefers   METRIC units" },
    /already holds this entry .*"Prefers metric units"/,
    409,
  ),
  memoryRow("an empty entry", { text: " " }, /text: must not be empty/),
  memoryRow("two lines", { text: "one\ntwo" }, /text: must be one line/),
  memoryRow("an entry over 1,000 characters", { text: long(1001) }, /over the limit of 1000/),
  memoryRow("no text", { entry: "x" }, /unknown field|text: must be/),
  req("memory of an unknown workspace", "POST", "/api/workspaces/nope/memory", 404, /Workspace nope does not exist/, {
    text: "x",
  }),
  req("editing an unknown memory entry", "PATCH", `${WD}/memory/nope`, 404, /Memory entry nope does not exist/, {
    text: "x",
  }),
  req("deleting an unknown memory entry", "DELETE", `${WD}/memory/nope`, 404, /Memory entry nope does not exist/),
  uploadRow("a path with .. in an encoded segment", "..%2Fsecret.md", "x", /must not contain "\.\."/),
  uploadRow("an absolute path", "%2Fetc%2Fpasswd", "x", /must be relative/),
  uploadRow("a backslash", "a%5Cb.md", "x", /backslash/),
  uploadRow("a NUL in the path", "a%00b.md", "x", /NUL/),
  uploadRow("a file over 1 MiB", "big.md", () => long(1024 * 1024 + 1), /at most 1,048,576 bytes/, 413),
  uploadRow("a body with NUL bytes", "nul.md", "a\u0000b", /binary/),
  uploadRow("a JSON Content-Type", "data.md", "{}", /text\/plain or text\/markdown/, 415, JSON_TYPE),
  uploadRow("another charset", "latin.md", "x", /must be UTF-8/, 415, "text/plain; charset=latin1"),
  req("an unknown knowledge file", "GET", `${K}/missing.md`, 404, /Knowledge file missing\.md does not exist/),
  req(
    "deleting an unknown knowledge file",
    "DELETE",
    `${K}/missing.md`,
    404,
    /Knowledge file missing\.md does not exist/,
  ),
  {
    ...req(
      "knowledge of an unknown workspace",
      "PUT",
      "/api/workspaces/nope/knowledge/a.md",
      404,
      /Workspace nope does not exist/,
      "x",
      "text/plain",
    ),
  },
  notAllowed("POST", `${K}/a.md`),
  notAllowed("POST", K),
  skillRow("a duplicate name", skill, /already has a skill named weekly-report/, 409),
  skillRow("a name that is not kebab-case", { ...skill, name: "Weekly Report" }, /name: must be kebab-case/),
  skillRow(
    "a description of two lines",
    { ...skill, name: "two-lines", description: "a\nb" },
    /description: must be one line/,
  ),
  skillRow("empty instructions", { ...skill, name: "empty", instructions: " " }, /instructions: must not be empty/),
  req("an unknown skill", "GET", `${WD}/skills/nope`, 404, /Skill nope does not exist/),
  req("a malformed skill name", "GET", `${WD}/skills/Bad_Name`, 400, /skill name: must be kebab-case/),
  req("an empty skill patch", "PATCH", `${WD}/skills/weekly-report`, 400, /send description and\/or instructions/, {}),
  req("renaming a skill", "PATCH", `${WD}/skills/weekly-report`, 400, /unknown field\(s\) name/, { name: "other" }),
];

const isJson = (raw: string) => {
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
};

/** The request of a row, and the error code it must get: a 400 for a body that is not JSON at all is "invalid_json". */
function request(row: Row): { init: RequestInit; code: string } {
  const { method, body, type, status } = row;
  if (body === undefined) return { init: { method }, code: CODES[status]! };
  const value = typeof body === "function" ? body() : body;
  const raw = typeof value === "string" ? value : JSON.stringify(value);
  const code = row.code ?? (status === 400 && !isJson(raw) ? "invalid_json" : CODES[status]!);
  return { init: jsonRequest(method, raw, { "content-type": type ?? JSON_TYPE }), code };
}

let server: AppServer;
let seeded: DatabaseSnapshot;

beforeAll(async () => {
  server = await startAppServer({ env: { HINTLINE_MAX_ATTACHMENTS: "1", HINTLINE_MAX_ATTACHMENT_BYTES: "16384" } });
  const first = await chat(server.url, {
    conversationId: "seed",
    messageId: "t1",
    text: "add tasks: draft; review; publish",
  });
  expect(first.response.status).toBe(200);
  replyId = first.chunks.find((c) => c.type === "start")?.messageId as string;
  expect(replyId).toBeTruthy();
  expect((await chat(server.url, { conversationId: "seed", text: "what time is it?" })).response.status).toBe(200);
  const settings = {
    injection: { timezone: "Europe/Berlin", timeInterval: 2, extraFields: { project: "hintline" } },
    context: { triggerRatio: 0.7 },
  };
  expect((await fetch(`${server.url}${S}`, jsonRequest("PATCH", { title: "Seeded", settings }))).status).toBe(200);
  expect(
    (await fetch(`${server.url}${S}/tasks`, jsonRequest("POST", { subject: "by hand", status: "in_progress" }))).status,
  ).toBe(201);
  expect((await fetch(`${server.url}${WD}/memory`, jsonRequest("POST", { text: "Prefers metric units" }))).status).toBe(
    201,
  );
  expect(
    (
      await fetch(`${server.url}${K}/KNOWLEDGE.md`, {
        method: "PUT",
        headers: { "content-type": "text/markdown" },
        body: "# Index",
      })
    ).status,
  ).toBe(201);
  expect((await fetch(`${server.url}${WD}/skills`, jsonRequest("POST", skill))).status).toBe(201);
  seeded = await settledSnapshot(server.databaseUrl);
});

afterAll(async () => {
  await server?.stop();
});

describe("hostile input", () => {
  it("starts from a seeded database: a conversation with messages, four tasks and custom settings", () => {
    expect(seeded.Conversation).toHaveLength(1);
    expect(seeded.Conversation?.[0]).toMatchObject({
      id: "seed",
      title: "Seeded",
      settings: expect.stringContaining("Europe/Berlin"),
    });
    expect(seeded.Message?.length).toBeGreaterThanOrEqual(4);
    expect(seeded.Task).toHaveLength(4);
  });

  it("has distinct rows", () => {
    const keys = rows.map(
      (r) =>
        `${r.method} ${r.path} ${r.type} ${typeof r.body === "function" ? r.body.toString() : JSON.stringify(r.body)}`,
    );
    expect(new Set(keys).size).toBe(keys.length);
    const names = rows.map((r) => r.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  for (const row of rows) {
    it(`${row.name} → ${row.status}`, async () => {
      const { init, code } = request(row);
      const response = await fetch(`${server.url}${row.path}`, init);
      const raw = await response.clone().text();
      const message = await expectApiError(response, row.status, code);
      expect(message).toMatch(row.message);
      expect(raw).not.toMatch(/\b\w*Error:|\n\s+at\s|node_modules|\.(?:ts|tsx|js|mjs):\d+/);
      expect(snapshotDatabase(server.databaseUrl)).toEqual(seeded);
    });
  }

  it("left every table exactly as seeded after the whole table", async () => {
    expect(await settledSnapshot(server.databaseUrl)).toEqual(seeded);
  });
});
