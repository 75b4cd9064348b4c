import { describe, expect, it } from "vitest";
import type { LedgerItem } from "../chat-message.ts";
import {
  boundLedger,
  collectLedger,
  DROPPED_KEPT,
  findIdentifiers,
  MAX_PINNED,
  renderLedger,
} from "./evidence-ledger.ts";
import { countTokens } from "./token-count.ts";

const kinds = (text: string) => findIdentifiers(text).map((f) => [f.kind, f.value]);

describe("evidence extraction", () => {
  it("finds paths, URLs, commands, numbers with units, dates and ids verbatim", () => {
    const text = [
      "The config of service alpha lives at /srv/app12/etc/settings-3.toml and the notes in docs/setup.md.",
      "See https://example.com/runbook?id=4. Restart it with `systemctl restart gateway`.",
      "$ npm run eval -- --runs 3",
      "The cache holds 384 MiB, the timeout is 45 s, it costs $12.50 and 80% is used.",
      "Deployed on 2026-03-08T01:30:00 as commit 3fa9c1e2, ticket OPS-1234, task #7.",
    ].join("\n");
    expect(kinds(text)).toEqual([
      ["path", "/srv/app12/etc/settings-3.toml"],
      ["path", "docs/setup.md"],
      ["url", "https://example.com/runbook?id=4"],
      ["command", "systemctl restart gateway"],
      ["command", "npm run eval -- --runs 3"],
      ["number", "384 MiB"],
      ["number", "45 s"],
      ["number", "$12.50"],
      ["number", "80%"],
      ["date", "2026-03-08T01:30:00"],
      ["id", "3fa9c1e2"],
      ["id", "OPS-1234"],
      ["id", "#7"],
    ]);
  });

  it("leaves prose alone: and/or, fractions, single digits, versions, times, single words in backticks", () => {
    expect(kinds("Use this and/or that, 1/2 of the people, version `foo` 1.2.3 at 5 o'clock, 10:30 sharp.")).toEqual(
      [],
    );
  });

  it("keeps standalone numbers: a port, a count, an amount with no unit beside it", () => {
    const text =
      "PostgreSQL listens on port 5432. We have 17 replicas of which 12 are healthy; the invoice total is 1,250.75 and the limit 0.85.";
    expect(kinds(text)).toEqual([
      ["number", "5432"],
      ["number", "17 replicas"],
      ["number", "12"],
      ["number", "1,250.75"],
      ["number", "0.85"],
    ]);
    expect(findIdentifiers("PostgreSQL listens on port 5432.")[0]).toMatchObject({
      value: "5432",
      context: "PostgreSQL listens on port",
    });
    // Digits that belong to something else stay with it.
    expect(kinds("ticket OPS-1234, task #42, commit 3fa9c1e2, file v2/app.js")).toEqual([
      ["id", "OPS-1234"],
      ["id", "#42"],
      ["id", "3fa9c1e2"],
      ["path", "v2/app.js"],
    ]);
  });

  it("keeps the words that say what an identifier was", () => {
    const [found] = findIdentifiers("Note: the config file of service alpha lives at /srv/x/y.toml.");
    expect(found).toMatchObject({ value: "/srv/x/y.toml", context: "the config file of service alpha lives at" });
  });

  it("describes each identifier by its own clause, and the items of a list by the list's", () => {
    const found = findIdentifiers(
      "Backups in /var/b.tar.gz, restore with `make restore`, the limit is 750 MiB. Services read /a/x.yaml, /a/y.yaml.",
    );
    expect(found.map((f) => [f.value, f.context])).toEqual([
      ["/var/b.tar.gz", "Backups in"],
      ["make restore", "restore with"],
      ["750 MiB", "the limit is"],
      ["/a/x.yaml", "Services read"],
      ["/a/y.yaml", "Services read"],
    ]);
    expect(findIdentifiers("Note: to rebuild the alder index, run `make reindex SHARD=4`.")[0]!.context).toBe(
      "Note: to rebuild the alder index, run",
    );
  });

  it("names created tasks from the tool's result", () => {
    expect(kinds("Task (id=3) created successfully: Write the release notes")).toEqual([
      ["task", "Write the release notes"],
    ]);
  });
});

describe("ledger ranking and bound", () => {
  it("puts the most recent and most referenced first, previous items behind new ones", () => {
    const previous: LedgerItem[] = [{ kind: "path", value: "/old/a.txt", context: "", refs: 1 }];
    const ranked = collectLedger(
      [
        { text: "first /x/one.txt and /x/two.txt", position: 1 },
        { text: "again /x/one.txt", position: 2 },
        { text: "then /x/three.txt", position: 3 },
      ],
      previous,
    );
    expect(ranked.map((r) => r.value)).toEqual(["/x/three.txt", "/x/one.txt", "/x/two.txt", "/old/a.txt"]);
    expect(ranked[1]!.refs).toBe(2);
  });

  it("keeps what fits the token bound, pinned items always, and lists the rest as dropped", () => {
    const items: LedgerItem[] = Array.from({ length: 40 }, (_, i) => ({
      kind: "path",
      value: `/srv/app${i}/config.yaml`,
      context: "the config",
      refs: 1,
    }));
    items[39] = { ...items[39]!, pinned: true };
    const { ledger, dropped } = boundLedger(items, 120);
    expect(ledger.length).toBeGreaterThan(2);
    expect(ledger.length).toBeLessThan(40);
    expect(ledger.at(-1)!.value).toBe("/srv/app39/config.yaml");
    expect(ledger.length + dropped.length).toBe(40);
    expect(renderLedger(ledger)).toContain("- path: /srv/app0/config.yaml — the config");
    expect(renderLedger([])).toBe("");
  });

  it("bounds the pins: at most MAX_PINNED, within the token bound, newest first; an older pin loses its pin", () => {
    // Pins of many compressions, the newest first (as nextLedger passes them), and two new items.
    const pins = Array.from({ length: 200 }, (_, i) => ({
      kind: "path" as const,
      value: `/srv/pinned-${i}/settings.yaml`,
      context: "pinned by the person",
      refs: 1,
      pinned: true,
    }));
    const ranked = collectLedger([{ text: "Edit `npm run build` and /srv/new/app.ts now.", position: 1 }], pins);
    const { ledger, dropped } = boundLedger(ranked, 2_048);
    expect(countTokens(renderLedger(ledger))).toBeLessThanOrEqual(2_048);
    const pinned = ledger.filter((i) => i.pinned);
    expect(pinned).toHaveLength(MAX_PINNED);
    expect(pinned.map((i) => i.value)).toEqual(pins.slice(0, MAX_PINNED).map((i) => i.value));
    // The new items keep their place: the pins beyond the bound rank behind them, as the old items they are.
    expect(ledger.map((i) => i.value)).toEqual(expect.arrayContaining(["npm run build", "/srv/new/app.ts"]));
    expect(ledger.slice(MAX_PINNED, MAX_PINNED + 2).map((i) => i.value)).toEqual(["npm run build", "/srv/new/app.ts"]);
    expect(ledger.length + dropped.length).toBe(Math.min(202, ledger.length + DROPPED_KEPT));
    expect([...ledger.slice(MAX_PINNED), ...dropped].every((i) => !i.pinned)).toBe(true);
    // The pins beyond: kept while the bound holds, then dropped, newest first, each without its pin.
    const beyond = [...ledger.slice(MAX_PINNED + 2), ...dropped];
    expect(beyond.map((i) => i.value)).toEqual(pins.slice(MAX_PINNED, MAX_PINNED + beyond.length).map((i) => i.value));
    // A pin is kept whatever its place while there are fewer than MAX_PINNED.
    const few = boundLedger(collectLedger([{ text: "Edit /srv/new/app.ts now.", position: 1 }], [pins[7]!]), 2_048);
    expect(few.ledger.map((i) => [i.value, i.pinned ?? false])).toEqual([
      ["/srv/pinned-7/settings.yaml", true],
      ["/srv/new/app.ts", false],
    ]);
  });
});
