// What reads a reply in the browser — a UI message stream's SSE body into chunks, and the chunks into the assistant
// message — gathered in one module that the chat (lib/stores/chat-runner.ts) imports when its first request starts:
// a conversation's first load shows stored messages and streams nothing, so none of this is in its JavaScript.
export { ChunkReader, streamingMessage } from "./ui-message-stream";
export { uiMessageChunks } from "./ui-stream-events";
