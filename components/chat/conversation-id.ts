// The open conversation's id, from the route's params or, for a conversation whose URL was set after it started,
// from the address bar.
export function conversationIdOf(params: Record<string, string | string[]> | null): string | undefined {
  const id = params?.id;
  if (typeof id === "string") return id;
  const match = /^\/c\/([^/]+)/.exec(typeof window === "undefined" ? "" : window.location.pathname);
  return match ? decodeURIComponent(match[1]!) : undefined;
}
