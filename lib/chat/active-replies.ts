// Replies this server process is streaming right now, one per conversation at most.
type ActiveReply = { replyId: string; controller: AbortController };

const holder = globalThis as unknown as { __hintlineActive?: Map<string, ActiveReply> };
if (!holder.__hintlineActive) holder.__hintlineActive = new Map();
const active = holder.__hintlineActive;

export function activeReply(conversationId: string): ActiveReply | undefined {
  return active.get(conversationId);
}

export function activeReplyIds(conversationId: string): Set<string> {
  const reply = active.get(conversationId);
  return new Set(reply ? [reply.replyId] : []);
}

export function beginReply(conversationId: string, replyId: string): AbortController | undefined {
  if (active.has(conversationId)) return undefined;
  const controller = new AbortController();
  active.set(conversationId, { replyId, controller });
  return controller;
}

export function endReply(conversationId: string, replyId: string): void {
  if (active.get(conversationId)?.replyId === replyId) active.delete(conversationId);
}

/** Every reply this process is streaming, as [conversationId, replyId]. */
export function activeReplyList(): Array<[string, string]> {
  return [...active].map(([conversationId, reply]) => [conversationId, reply.replyId]);
}
