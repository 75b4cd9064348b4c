import { describe, expect, it } from "vitest";
import type { LedgerItem } from "../chat-message.ts";
import { boundLedger, collectLedger, findIdentifiers, renderLedger } from "./evidence-ledger.ts";

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
});
