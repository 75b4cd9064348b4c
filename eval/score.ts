// Programmatic scoring: answers are parsed (times, durations, numbers, weekdays, ids, identifiers) by tolerant rules
// that still refuse a wrong or missing value. No model judges another.
import { formatInTimeZone } from "date-fns-tz";

export type Score = { correct: number; total: number; expected: string; got: string };

export const pass = (ok: boolean, expected: string, got: string): Score => ({
  correct: ok ? 1 : 0,
  total: 1,
  expected,
  got,
});

/** Every clock time written in a text, as minutes after midnight: "14:05", "2:05 pm", "T14:05:00". */
export function timesIn(text: string): number[] {
  const found: number[] = [];
  for (const m of text.matchAll(/(?:^|[^\d:])(\d{1,2}):(\d{2})(?::\d{2})?\s*([ap]\.?m\.?)?/gi)) {
    let hours = Number(m[1]);
    const minutes = Number(m[2]);
    const half = m[3]?.toLowerCase().replace(/\./g, "");
    if (half === "pm" && hours < 12) hours += 12;
    if (half === "am" && hours === 12) hours = 0;
    if (hours < 24 && minutes < 60) found.push(hours * 60 + minutes);
  }
  return found;
}

/** The answer names the local time of `at` in `zone`, within `toleranceMinutes` (across midnight too). */
export function scoreTime(answer: string, at: Date, zone: string, toleranceMinutes = 5): Score {
  const expected = formatInTimeZone(at, zone, "HH:mm");
  const [h, m] = expected.split(":").map(Number);
  const want = h! * 60 + m!;
  const times = timesIn(answer);
  const ok = times.some((t) => Math.min(Math.abs(t - want), 1440 - Math.abs(t - want)) <= toleranceMinutes);
  return pass(ok, `${expected} (${zone})`, answer);
}

/** A duration written in the answer, in minutes: "2 hours 30 minutes", "2.5 h", "150 minutes", "2h30". */
export function durationMinutes(text: string): number | undefined {
  const lower = text.toLowerCase();
  const hm =
    /(\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\b(?:\s*(?:and\s*)?(\d+)\s*(?:minutes?|mins?|m)\b)?/.exec(lower) ??
    /(\d+)h(\d+)/.exec(lower);
  if (hm) return Math.round(Number(hm[1]) * 60 + Number(hm[2] ?? 0));
  const minutes = /(\d+)\s*(?:minutes?|mins?)\b/.exec(lower);
  return minutes ? Number(minutes[1]) : undefined;
}

export function scoreDuration(answer: string, expectedMinutes: number, toleranceMinutes = 10): Score {
  const got = durationMinutes(answer);
  return pass(
    got !== undefined && Math.abs(got - expectedMinutes) <= toleranceMinutes,
    `${expectedMinutes} minutes`,
    answer,
  );
}

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** The first weekday the answer names is the expected one. */
export function scoreWeekday(answer: string, expected: string): Score {
  const first = /\b(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/i.exec(answer)?.[1]?.toLowerCase();
  return pass(first === expected.toLowerCase() && WEEKDAYS.includes(first), expected, answer);
}

/** The first whole number in the answer (digits or a word up to twelve). */
export function firstNumber(text: string): number | undefined {
  const words = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
  ];
  const m = new RegExp(`\\b(\\d[\\d,]*|${words.join("|")})\\b`, "i").exec(text);
  if (!m) return undefined;
  const word = words.indexOf(m[1]!.toLowerCase());
  return word >= 0 ? word : Number(m[1]!.replace(/,/g, ""));
}

export function scoreCount(answer: string, expected: number): Score {
  return pass(firstNumber(answer) === expected, String(expected), answer);
}

/** A number within `tolerance` (absolute) of the expected one is among the answer's numbers. */
export function scoreNear(answer: string, expected: number, tolerance: number): Score {
  const numbers = [...answer.matchAll(/\d[\d,]*/g)].map((m) => Number(m[0].replace(/,/g, "")));
  return pass(
    numbers.some((n) => Math.abs(n - expected) <= tolerance),
    `${expected} ± ${tolerance}`,
    answer,
  );
}

/** The answer names the task by id ("#4", "task 4") or by its subject. */
export function scoreTask(answer: string, id: string, subject: string): Score {
  const ids = [...answer.matchAll(/(?:#|\btask\s*#?)(\d+)\b/gi)].map((m) => m[1]);
  const ok = ids[0] === id || (!ids.length && answer.toLowerCase().includes(subject.toLowerCase()));
  return pass(ok, `task ${id} (${subject})`, answer);
}

/** The answer quotes the identifier exactly (backticks and surrounding punctuation aside). */
export function scoreVerbatim(answer: string, expected: string): Score {
  return pass(answer.replace(/`/g, "").includes(expected), expected, answer);
}
