// Writing the current time into a hint and reading it back, independent of the server's own zone: the wall-clock
// fields are parsed into a Date whose "local" fields are its UTC ones, then read in the zone the hint names. (date-fns
// `parse` builds local-time Dates: a wall time in the server's DST gap would move by an hour.)
import { parse } from "date-fns";
import { formatInTimeZone, fromZonedTime } from "date-fns-tz";

const CONSTRUCT_FROM = Symbol.for("constructDateFrom"); // date-fns keeps a Date subclass through its calculations

/** A Date whose local-time accessors are its UTC ones: a wall clock with no zone of its own. */
class WallClock extends Date {
  [CONSTRUCT_FROM](value: Date | number | string): WallClock {
    return new WallClock(typeof value === "object" ? value.getTime() : value);
  }
  override getTimezoneOffset(): number {
    return 0;
  }
  override getFullYear() {
    return this.getUTCFullYear();
  }
  override getMonth() {
    return this.getUTCMonth();
  }
  override getDate() {
    return this.getUTCDate();
  }
  override getDay() {
    return this.getUTCDay();
  }
  override getHours() {
    return this.getUTCHours();
  }
  override getMinutes() {
    return this.getUTCMinutes();
  }
  override getSeconds() {
    return this.getUTCSeconds();
  }
  override getMilliseconds() {
    return this.getUTCMilliseconds();
  }
  override setFullYear(...args: [number, number?, number?]) {
    return this.setUTCFullYear(...(args as [number]));
  }
  override setMonth(...args: [number, number?]) {
    return this.setUTCMonth(...(args as [number]));
  }
  override setDate(date: number) {
    return this.setUTCDate(date);
  }
  override setHours(...args: [number, number?, number?, number?]) {
    return this.setUTCHours(...(args as [number]));
  }
  override setMinutes(...args: [number, number?, number?]) {
    return this.setUTCMinutes(...(args as [number]));
  }
  override setSeconds(...args: [number, number?]) {
    return this.setUTCSeconds(...(args as [number]));
  }
  override setMilliseconds(ms: number) {
    return this.setUTCMilliseconds(ms);
  }
}

/** Whether the pattern writes an absolute instant (an offset or a timestamp), not only a wall-clock time. */
function writesInstant(pattern: string): boolean {
  return /[Xxt]/i.test(pattern.replace(/'[^']*'/g, ""));
}

// date-fns-tz's formatting and parsing cost tens of microseconds each, and one model call asks for the same time
// several times (the status, the rule's hint, the strategy's comparison): the last answers are kept.
const MEMO_SIZE = 64;
function memo<T>(cache: Map<string, T>, key: string, compute: () => T): T {
  if (cache.has(key)) return cache.get(key)!;
  const value = compute();
  if (cache.size >= MEMO_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}
const written = new Map<string, string>();
const read = new Map<string, number | undefined>();

export function writeTime(instant: Date, zone: string, pattern: string): string {
  // A pattern without fractions of a second (S) or a millisecond timestamp (T) outside its quoted text writes the same
  // text all second long.
  const ms = instant.getTime();
  const at = /[ST]/.test(pattern.replace(/'[^']*'/g, "")) ? ms : Math.floor(ms / 1000);
  return memo(written, `${at}\u0000${zone}\u0000${pattern}`, () => formatInTimeZone(instant, zone, pattern));
}

/** The instant a time written with `pattern` in `zone` stands for; undefined when it does not parse. */
export function readTime(value: string, pattern: string, zone: string): Date | undefined {
  const ms = memo(read, `${value}\u0000${pattern}\u0000${zone}`, () =>
    readTimeUncached(value, pattern, zone)?.getTime(),
  );
  return ms === undefined ? undefined : new Date(ms);
}

function readTimeUncached(value: string, pattern: string, zone: string): Date | undefined {
  let parsed: Date;
  try {
    parsed = parse(value, pattern, new WallClock(0));
  } catch {
    return undefined;
  }
  const ms = parsed.getTime();
  if (Number.isNaN(ms)) return undefined;
  if (writesInstant(pattern)) return new Date(ms);
  const year = parsed.getUTCFullYear();
  if (year < 1 || year > 9999) return undefined;
  // An ISO wall time without an offset is read in `zone` by date-fns-tz itself, whatever the server's zone.
  const instant = fromZonedTime(new Date(ms).toISOString().slice(0, -1), zone);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}
