type Env = Record<string, string | undefined>;

export const DEFAULT_MAX_IMPORT_BYTES: number;
export const DEFAULT_MAX_ATTACHMENTS: number;
export const DEFAULT_MAX_ATTACHMENT_BYTES: number;
export const MAX_MESSAGE_TEXT: number;
export const MAX_CHAT_TEXT_BODY_BYTES: number;
export function maxImportBytes(env?: Env): number;
export function attachmentLimits(env?: Env): { maxCount: number; maxBytes: number };
export function maxChatBodyBytes(env?: Env): number;
export function maxRouteBodyBytes(env?: Env): number;
