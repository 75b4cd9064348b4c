// The browser's IANA time zone, sent with a first message and an import so the conversation lives in it.
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
