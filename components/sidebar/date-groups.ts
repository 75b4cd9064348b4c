// Pure: the conversation list grouped by when each conversation was last updated, in the browser's time zone:
// Today, Yesterday, Previous 7 days, Previous 30 days, then one group per month ("November 2026").

export type DateGroup<T> = { key: string; label: string; items: T[] };

const monthLabel = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric" });

/** Midnight `days` calendar days before `now`'s day, in local time (a DST change keeps it at midnight). */
const dayStart = (now: Date, days: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - days);

/** Groups `items` (newest first, as the list is) by `updatedAt`; the groups keep the items' order. */
export function groupByDate<T extends { updatedAt: string }>(items: readonly T[], now: Date): DateGroup<T>[] {
  const bounds = [
    { key: "today", label: "Today", from: dayStart(now, 0).getTime() },
    { key: "yesterday", label: "Yesterday", from: dayStart(now, 1).getTime() },
    { key: "week", label: "Previous 7 days", from: dayStart(now, 7).getTime() },
    { key: "month", label: "Previous 30 days", from: dayStart(now, 30).getTime() },
  ];
  const groups: DateGroup<T>[] = [];
  const byKey = new Map<string, DateGroup<T>>();
  for (const item of items) {
    const at = new Date(item.updatedAt);
    const time = at.getTime();
    // A date in the future (another machine's clock) or unreadable counts as today.
    const bound = Number.isNaN(time) ? bounds[0] : bounds.find((b) => time >= b.from);
    const key = bound?.key ?? `${at.getFullYear()}-${at.getMonth() + 1}`;
    let group = byKey.get(key);
    if (!group) {
      group = { key, label: bound?.label ?? monthLabel.format(at), items: [] };
      byKey.set(key, group);
      groups.push(group);
    }
    group.items.push(item);
  }
  return groups;
}

/**
 * The list's sections: the pinned conversations first (in the list's order), then the others grouped by date. An
 * item without a boolean `pinned` (an older server's answer) is not pinned.
 */
export function groupForList<T extends { updatedAt: string; pinned?: unknown }>(
  items: readonly T[],
  now: Date,
): DateGroup<T>[] {
  const pinned = items.filter((item) => item.pinned === true);
  const rest = groupByDate(
    items.filter((item) => item.pinned !== true),
    now,
  );
  return pinned.length > 0 ? [{ key: "pinned", label: "Pinned", items: pinned }, ...rest] : rest;
}
