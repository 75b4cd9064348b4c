import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { type CallInput, createCacheBreakDetector, parseCallBaseline } from "./cache-breaks.ts";

const user = (text: string): ModelMessage => ({ role: "user", content: text });
const assistant = (text: string): ModelMessage => ({ role: "assistant", content: text });

const base = { system: "You are helpful.", tools: "[TaskList]", promptSource: "{}", compression: "" };
const call = (messages: ModelMessage[], extra: Partial<CallInput> = {}): CallInput => ({ ...base, messages, ...extra });

describe("cache-break detector", () => {
  it("finds no break while every call extends the last, also when old messages come again as new objects", () => {
    const detector = createCacheBreakDetector();
    const history = [user("hi"), assistant("hello"), user("add a task")];
    expect(detector.observe(call(history, { stable: history }))).toBeUndefined();
    // The next step: the same history array, the reply so far converted afresh.
    const step2 = history.concat([assistant("calling"), { role: "tool", content: [] }]);
    expect(detector.observe(call(step2, { stable: history }))).toBeUndefined();
    const step3 = history.concat([
      assistant("calling"),
      { role: "tool", content: [] },
      user("<system-reminder>tasks</system-reminder>"),
    ]);
    expect(detector.observe(call(step3, { stable: history }))).toBeUndefined();
    // The next reply: a new history array, the stored reply converted again (equal content, new objects).
    const next = [
      ...history,
      assistant("calling"),
      { role: "tool", content: [] } as ModelMessage,
      user("<system-reminder>tasks</system-reminder>"),
      assistant("done"),
      user("thanks"),
    ];
    expect(detector.observe(call(next, { stable: next }))).toBeUndefined();
  });

  it("names a switch to another model a model-switch, even when the input extends the last", () => {
    const detector = createCacheBreakDetector();
    const history = [user("a"), assistant("b")];
    detector.observe(call(history, { model: "anthropic/claude-sonnet-4-5" }));
    expect(detector.observe(call([...history, user("c")], { model: "anthropic/claude-sonnet-4-5" }))).toBeUndefined();
    expect(detector.observe(call([...history, user("c"), user("d")], { model: "google/gemini-2.5-pro" }))).toEqual({
      firstChangedMessage: null,
      changed: "model",
      cause: "model-switch",
    });
    expect(
      detector.observe(call([...history, user("c"), user("d"), user("e")], { model: "google/gemini-2.5-pro" })),
    ).toBeUndefined();
  });

  it("names tools made again by the person's choice tools-changed, and tools changed otherwise unexpected, also after a restart", () => {
    const detector = createCacheBreakDetector();
    const history = [user("a"), assistant("b")];
    detector.observe(call(history, { toolsSource: "0" }));
    expect(
      detector.observe(call([...history, user("c")], { tools: "[TaskList, mcp__x__y]", toolsSource: "1" })),
    ).toEqual({
      firstChangedMessage: null,
      changed: "tools",
      cause: "tools-changed",
    });
    expect(
      detector.observe(call([...history, user("c"), user("d")], { tools: "[TaskList]", toolsSource: "1" })),
    ).toMatchObject({ changed: "tools", cause: "unexpected" });
    // A stored baseline (another instance, a restart) knows the list's revision too.
    const restarted = createCacheBreakDetector(parseCallBaseline(JSON.parse(JSON.stringify(detector.baseline()))));
    expect(
      restarted.observe(call([...history, user("c"), user("d")], { tools: "[TaskList, mcp__z__w]", toolsSource: "2" })),
    ).toMatchObject({ cause: "tools-changed" });
    // A baseline stored before the detector knew the revision still parses.
    const { toolsSource: _dropped, ...old } = detector.baseline()!;
    expect(parseCallBaseline(old)).toBeDefined();
    expect(parseCallBaseline({ ...old, toolsSource: 3 })).toBeUndefined();
  });

  it("names the first changed message of an unexpected rewrite", () => {
    const detector = createCacheBreakDetector();
    detector.observe(call([user("a"), assistant("b"), user("c")]));
    expect(detector.observe(call([user("a"), assistant("B"), user("c"), user("d")]))).toEqual({
      firstChangedMessage: 1,
      changed: "messages",
      cause: "unexpected",
    });
  });

  it("tells a prompt edit from a system prompt that changed by itself (a timestamp in it)", () => {
    const detector = createCacheBreakDetector();
    const messages = [user("a")];
    detector.observe(call(messages));
    expect(
      detector.observe(call(messages, { system: "Answer in French.", promptSource: '{"instructions":"French"}' })),
    ).toEqual({
      firstChangedMessage: null,
      changed: "system",
      cause: "prompt-edit",
    });
    expect(
      detector.observe(call(messages, { system: "Now: 10:31", promptSource: '{"instructions":"French"}' })),
    ).toMatchObject({ changed: "system", cause: "unexpected" });
  });

  it("names a history rewritten by a settings edit (timestamps on, their zone) as such, never unexpected", () => {
    const detector = createCacheBreakDetector();
    detector.observe(call([user("a"), assistant("b")]));
    const stamped = [user("[2026-12-01 10:00:00] a"), assistant("b"), user("[2026-12-01 10:01:00] c")];
    expect(detector.observe(call(stamped, { inputSettings: "timestamps UTC" }))).toEqual({
      firstChangedMessage: 0,
      changed: "messages",
      cause: "settings-edit",
    });
    expect(detector.observe(call([...stamped, assistant("d")], { inputSettings: "timestamps UTC" }))).toBeUndefined();
    const zoned = [user("[2026-12-01 11:00:00] a"), assistant("b"), user("[2026-12-01 11:01:00] c"), assistant("d")];
    expect(detector.observe(call(zoned, { inputSettings: "timestamps Europe/Berlin" }))).toMatchObject({
      firstChangedMessage: 0,
      cause: "settings-edit",
    });
    // The same settings and a rewritten message: still unexpected.
    expect(
      detector.observe(call([user("x"), ...zoned.slice(1)], { inputSettings: "timestamps Europe/Berlin" })),
    ).toMatchObject({ cause: "unexpected" });
  });

  it("attributes a divergence after a branch edit or switch to the branch", () => {
    const detector = createCacheBreakDetector();
    detector.observe(call([user("a"), assistant("b"), user("c"), assistant("d")]));
    const branched = [user("a"), assistant("b"), user("C"), assistant("e")];
    expect(detector.observe(call(branched, { branch: "1" }))).toEqual({
      firstChangedMessage: 2,
      changed: "messages",
      cause: "branch",
    });
    expect(detector.observe(call([...branched, user("f")], { branch: "1" }))).toBeUndefined();
    expect(detector.observe(call([user("a"), assistant("B")], { branch: "1" }))).toMatchObject({ cause: "unexpected" });
  });

  it("attributes a rewrite that follows a compression to it, and a changed tool list to nothing expected", () => {
    const detector = createCacheBreakDetector();
    detector.observe(call([user("a"), assistant("b"), user("c"), assistant("d")]));
    const compressed = [user("<summary>a, b</summary>"), user("c"), assistant("d"), user("e")];
    expect(detector.observe(call(compressed, { compression: "a, b" }))).toEqual({
      firstChangedMessage: 0,
      changed: "messages",
      cause: "compression",
    });
    expect(
      detector.observe(call(compressed.concat(user("f")), { compression: "a, b", tools: "[TaskList, PlanWrite]" })),
    ).toMatchObject({
      changed: "tools",
      cause: "unexpected",
    });
  });

  it("reports a shorter input as a break where it ends: a retried reply, or unexpected otherwise", () => {
    const detector = createCacheBreakDetector();
    const history = [user("a"), assistant("b"), user("c")];
    detector.observe(call([...history, assistant("step 1"), { role: "tool", content: [] }]));
    expect(detector.observe(call(history, { retry: true }))).toEqual({
      firstChangedMessage: 3,
      changed: "messages",
      cause: "retry",
    });
    detector.observe(call([...history, assistant("x")]));
    expect(detector.observe(call(history))).toMatchObject({ firstChangedMessage: 3, cause: "unexpected" });
  });

  it("hashes only messages it has not seen as the same object", () => {
    const detector = createCacheBreakDetector();
    let serialised = 0;
    const counted = (text: string): ModelMessage => {
      const message = { role: "user", content: text } as ModelMessage;
      const toJSON = () => {
        serialised++;
        return { role: "user", content: text };
      };
      Object.defineProperty(message, "toJSON", { value: toJSON, enumerable: false });
      return message;
    };
    const history = Array.from({ length: 200 }, (_, i) => counted(`m${i}`));
    detector.observe(call(history, { stable: history }));
    expect(serialised).toBe(200);
    serialised = 0;
    expect(detector.observe(call(history.concat([counted("r1"), counted("r2")]), { stable: history }))).toBeUndefined();
    expect(serialised).toBe(2);
    serialised = 0;
    // A longer history in a new array (the next reply): the old objects are recognised, only the new one is hashed.
    const next = history.concat([counted("r1 again"), counted("n")]);
    expect(detector.observe(call(next, { stable: next }))).toEqual({
      firstChangedMessage: 200,
      changed: "messages",
      cause: "unexpected",
    });
    expect(serialised).toBe(2);
  });

  it("names the removal of the previous call's replace status replaced-status, and any other change still unexpected", () => {
    const detector = createCacheBreakDetector();
    const status = (t: string) => user(`<system-reminder>${t}</system-reminder>`);
    const first = [user("hi"), status("12:00")];
    expect(detector.observe(call(first, { replaceStatusAt: 1 }))).toBeUndefined();
    // The next call: the previous status gone, the reply and the new status after the kept prefix.
    const second = [user("hi"), assistant("hello"), user("more"), status("12:01")];
    expect(detector.observe(call(second, { replaceStatusAt: 3 }))).toEqual({
      firstChangedMessage: 1,
      changed: "messages",
      cause: "replaced-status",
    });
    // A call whose first change lies before the status is not explained by it.
    const third = [user("HI"), assistant("hello"), user("more"), assistant("ok"), status("12:02")];
    expect(detector.observe(call(third, { replaceStatusAt: 4 }))).toMatchObject({
      firstChangedMessage: 0,
      cause: "unexpected",
    });
    // Without a replace status in the previous call, the same removal is unexpected.
    const plain = createCacheBreakDetector();
    plain.observe(call(first));
    expect(plain.observe(call(second))).toMatchObject({ firstChangedMessage: 1, cause: "unexpected" });
  });

  it("compares the first call with a stored baseline, as a new process or another instance would", () => {
    const first = createCacheBreakDetector();
    const history = [user("a"), assistant("b"), user("c")];
    first.observe(call(history, { stable: history, inputSettings: "", branch: "0" }));
    // Stored as JSON and read back: the copy of the messages is gone, the hashes remain.
    const stored = parseCallBaseline(JSON.parse(JSON.stringify(first.baseline())));
    expect(stored).toBeDefined();
    const extended = [user("a"), assistant("b"), user("c"), assistant("d"), user("e")];
    expect(
      createCacheBreakDetector(stored).observe(call(extended, { inputSettings: "", branch: "0" })),
    ).toBeUndefined();
    expect(
      createCacheBreakDetector(stored).observe(
        call(extended, { system: "Answer in French.", promptSource: '{"x":1}', inputSettings: "", branch: "0" }),
      ),
    ).toEqual({
      firstChangedMessage: null,
      changed: "system",
      cause: "prompt-edit",
    });
    const stamped = [user("[Mon 10:00] a"), assistant("b"), user("[Mon 10:01] c"), user("e")];
    expect(
      createCacheBreakDetector(stored).observe(
        call(stamped, { inputSettings: "timestamps Europe/Berlin", branch: "0" }),
      ),
    ).toEqual({
      firstChangedMessage: 0,
      changed: "messages",
      cause: "settings-edit",
    });
    expect(
      createCacheBreakDetector(stored).observe(call([user("a"), assistant("B")], { inputSettings: "", branch: "0" })),
    ).toEqual({
      firstChangedMessage: 1,
      changed: "messages",
      cause: "unexpected",
    });
    // A seeded detector goes on comparing by identity from its own next call.
    const seeded = createCacheBreakDetector(stored);
    seeded.observe(call(extended, { stable: extended, inputSettings: "", branch: "0" }));
    expect(
      seeded.observe(call(extended.concat(user("f")), { stable: extended, inputSettings: "", branch: "0" })),
    ).toBeUndefined();
    expect(seeded.baseline()!.hashes).toHaveLength(6);
  });

  it("reads no baseline from what is not one", () => {
    const good = createCacheBreakDetector();
    good.observe(call([user("a")]));
    const baseline = good.baseline()!;
    for (const bad of [
      null,
      1,
      "x",
      {},
      { ...baseline, hashes: [1] },
      { ...baseline, system: 3 },
      { ...baseline, replaceStatusAt: "1" },
    ]) {
      expect(parseCallBaseline(bad)).toBeUndefined();
    }
    expect(parseCallBaseline(baseline)).toEqual(baseline);
  });
});

describe("what a detector keeps", () => {
  it("counts the bytes of the previous call's messages, following the prefix it shares", () => {
    const detector = createCacheBreakDetector();
    expect(detector.heldBytes()).toBe(0);
    const a = user("a".repeat(1000));
    const b = assistant("b".repeat(3000));
    detector.observe(call([a, b]));
    const both = detector.heldBytes();
    expect(both).toBeGreaterThan(8000);
    detector.observe(call([a]));
    expect(detector.heldBytes()).toBeLessThan(both / 2);
    detector.observe(call([a, b, user("c")]));
    expect(detector.heldBytes()).toBeGreaterThan(both);
  });
});

describe("an expired cache (ttl-expired)", () => {
  const FIVE_MINUTES = 5 * 60_000;
  const HOUR = 60 * 60_000;
  const t0 = new Date("2026-12-06T10:00:00Z");
  const atPlus = (ms: number) => new Date(t0.getTime() + ms);

  it("is a break when the call comes more than the TTL after the previous one, not at the TTL or before", () => {
    const detector = createCacheBreakDetector();
    const history = [user("a"), assistant("b")];
    detector.observe(call(history, { at: t0, cacheTtlMs: FIVE_MINUTES }));
    const next = [...history, user("c")];
    // Exactly the TTL: Anthropic still serves it.
    expect(detector.observe(call(next, { at: atPlus(FIVE_MINUTES), cacheTtlMs: FIVE_MINUTES }))).toBeUndefined();
    // Each call refreshes the entry: the gap counts from the call before, not from the first.
    const later = [...next, assistant("d"), user("e")];
    expect(
      detector.observe(call(later, { at: atPlus(2 * FIVE_MINUTES - 1), cacheTtlMs: FIVE_MINUTES })),
    ).toBeUndefined();
    const idle = [...later, assistant("f"), user("g")];
    expect(detector.observe(call(idle, { at: atPlus(3 * FIVE_MINUTES + 1), cacheTtlMs: FIVE_MINUTES }))).toEqual({
      firstChangedMessage: null,
      changed: "time",
      cause: "ttl-expired",
    });
  });

  it("takes the TTL the previous call wrote with (1h), and wins over a change further on but not a model switch", () => {
    const detector = createCacheBreakDetector();
    const history = [user("a"), assistant("b")];
    detector.observe(call(history, { at: t0, cacheTtlMs: HOUR, model: "m" }));
    // 30 idle minutes under a 1-hour cache: no break, although this call asks for 5 minutes from now on.
    const next = [...history, user("c")];
    expect(detector.observe(call(next, { at: atPlus(30 * 60_000), cacheTtlMs: FIVE_MINUTES, model: "m" }))).toBe(
      undefined,
    );
    // 6 minutes later the 5-minute entry is gone; the edited message behind it no longer decides where it missed.
    const edited = [user("a"), assistant("B"), user("c")];
    expect(
      detector.observe(call(edited, { at: atPlus(36 * 60_000), cacheTtlMs: FIVE_MINUTES, model: "m" })),
    ).toMatchObject({ cause: "ttl-expired" });
    expect(detector.observe(call(edited, { at: atPlus(HOUR * 3), model: "other" }))).toMatchObject({
      cause: "model-switch",
    });
  });

  it("is never told where the provider states no TTL, or the previous call's time is not known", () => {
    const detector = createCacheBreakDetector();
    const history = [user("a"), assistant("b")];
    detector.observe(call(history, { at: t0 }));
    expect(detector.observe(call([...history, user("c")], { at: atPlus(HOUR * 24) }))).toBeUndefined();
    const untimed = createCacheBreakDetector();
    untimed.observe(call(history, { cacheTtlMs: FIVE_MINUTES }));
    expect(untimed.observe(call([...history, user("c")], { at: atPlus(HOUR), cacheTtlMs: FIVE_MINUTES }))).toBe(
      undefined,
    );
  });

  it("survives a restart: the stored baseline keeps the call's time and TTL, and forged ones are dropped", () => {
    const detector = createCacheBreakDetector();
    const history = [user("a"), assistant("b")];
    detector.observe(call(history, { at: t0, cacheTtlMs: FIVE_MINUTES }));
    const stored = JSON.parse(JSON.stringify(detector.baseline()));
    expect(stored).toMatchObject({ at: t0.toISOString(), ttlMs: FIVE_MINUTES });
    const restarted = createCacheBreakDetector(parseCallBaseline(stored));
    expect(
      restarted.observe(call([...history, user("c")], { at: atPlus(FIVE_MINUTES + 1), cacheTtlMs: FIVE_MINUTES })),
    ).toMatchObject({ cause: "ttl-expired" });
    for (const forged of [
      { at: "yesterday", ttlMs: FIVE_MINUTES },
      { at: t0.toISOString(), ttlMs: -1 },
      { at: t0.toISOString(), ttlMs: "300000" },
      { at: 12, ttlMs: 1.5 },
    ]) {
      const parsed = parseCallBaseline({ ...stored, ...forged });
      expect(parsed).toBeDefined();
      const again = createCacheBreakDetector(parsed);
      expect(again.observe(call([...history, user("c")], { at: atPlus(HOUR), cacheTtlMs: FIVE_MINUTES }))).toBe(
        undefined,
      );
    }
  });
});
