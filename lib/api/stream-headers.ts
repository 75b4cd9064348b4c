// Headers of the chat's event stream, on top of the AI SDK's (text/event-stream, no-cache, x-accel-buffering: no).
// `no-transform` keeps Next.js (and any proxy) from gzipping it: a compressor set up for every reply cost about 2 ms
// of time to first token here, and per-event flushes gain little over a stream of small deltas.
export const CHAT_STREAM_HEADERS = { "cache-control": "no-cache, no-transform" } as const;
