// How much Hintline reads from an MCP server. Every byte a server sends is counted against one of these before it is
// kept, so a server that never ends an event, answers with a huge body or lists endless tools costs a few MiB and a
// clear error (McpProtocolError in the call's result, the reason in the server's status) instead of the memory of the
// whole process. A tool's result reaches the model capped at 8,000 characters anyway; these caps only bound reading.
const MiB = 1024 * 1024;

/** One JSON-RPC message: a JSON body, one SSE event (counted in characters once decoded, never more than its bytes), one line over stdio. */
export const MCP_MESSAGE_MAX_BYTES = 4 * MiB;
/** All the bytes of one HTTP response (over the SSE transport, one connection's stream carries every answer of a session). */
export const MCP_RESPONSE_MAX_BYTES = 16 * MiB;
/** A server's tool listing over all its pages, counted as the JSON of its tools. */
export const MCP_TOOL_LIST_MAX_BYTES = 4 * MiB;
/** The JSON-RPC error code of a call that Hintline cut off at a limit (in the range JSON-RPC leaves to implementations). */
export const MCP_LIMIT_ERROR_CODE = -32_001;

export const mib = (bytes: number) => `${Number((bytes / MiB).toFixed(1))} MiB`;

/** What a server sent beyond a limit; its message says which limit and is written for the person and the model. */
export class McpLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpLimitError";
  }
}

export const messageTooLarge = (what: string, limit = MCP_MESSAGE_MAX_BYTES) =>
  new McpLimitError(
    `the MCP server sent ${what} longer than ${mib(limit)}, the most Hintline reads as one message; the rest was not read`,
  );

export const responseTooLarge = (limit = MCP_RESPONSE_MAX_BYTES) =>
  new McpLimitError(
    `the MCP server's answer grew past ${mib(limit)}, the most Hintline reads from one response; the rest was not read`,
  );

export const toolListTooLarge = (limit = MCP_TOOL_LIST_MAX_BYTES) =>
  new McpLimitError(
    `the MCP server's tool listing is longer than ${mib(limit)} over its pages, the most Hintline takes; its tools were not taken`,
  );
