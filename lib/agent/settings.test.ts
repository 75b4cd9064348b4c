import { describe, expect, it } from "vitest";
import { contextText, decideInjection, sinceText, tasksText } from "./hints/decide-injection.ts";
import { HINT_MAX_CHARS, renderHint } from "./hints/render-hint.ts";
import { sharedCacheSizes } from "../bounded-map.ts";
import {
  DEFAULT_TEMPLATE,
  RESOLVED_SETTINGS_MAX_BYTES,
  defaultSettings,
  MAX_BUILT_IN_TEXT_CHARS,
  MAX_SINCE_CHARS,
  mergeSettings,
  resolveSettings,
  samplingOptions,
  timeFormatProblem,
  validateSettings,
  worstCaseHintChars,
} from "./settings.ts";

describe("settings", () => {
  it("has the spec's defaults", () => {
    const s = defaultSettings("Europe/Berlin");
    expect(s.injection).toMatchObject({
      injectRuntimeState: true,
      timezone: "Europe/Berlin",
      timeFormat: "yyyy-MM-dd'T'HH:mm:ss",
      timeInterval: 0.5,
      contextBufferRatio: 0.2,
      injectionSource: { label: "System", sublabel: "Runtime State" },
      taskToolNames: ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"],
      extraFields: {},
      emitHintEvent: true,
      strategy: "append",
      timestamps: false,
      tasksDetail: "list",
    });
    expect(s.injection.template).toBe(DEFAULT_TEMPLATE);
    expect(s.context).toEqual({ triggerRatio: 0.8, reserveRatio: 0.1 });
  });

  it("merges section by section", () => {
    const merged = mergeSettings(
      { injection: { timezone: "UTC", timeInterval: 1 } },
      { injection: { timeInterval: 2 } },
    );
    expect(merged).toEqual({ injection: { timezone: "UTC", timeInterval: 2 } });
  });

  it.each([
    [{ injection: { timezone: "Mars/Olympus" } }, "injection.timezone"],
    [{ injection: { template: "no placeholder" } }, "injection.template"],
    [{ injection: { timeFormat: "HH:mm" } }, "injection.timeFormat"],
    [{ injection: { timeInterval: -1 } }, "injection.timeInterval"],
    [{ injection: { contextBufferRatio: 0.8 } }, "injection.contextBufferRatio"],
    [{ context: { reserveRatio: 0.8 } }, "context.reserveRatio"],
    [{ context: { triggerRatio: 0.95 } }, "context.triggerRatio"],
    [{ context: { triggerRatio: 0 } }, "context.triggerRatio"],
    [{ injection: { extraFields: { "bad key": "x" } } }, "injection.extraFields.bad key"],
    [{ injection: { surprise: true } }, "injection"],
    [{ prompt: { base: 42 } }, "prompt.base"],
    [{ injection: { strategy: "sometimes" } }, "injection.strategy"],
    [{ injection: { timestamps: "yes" } }, "injection.timestamps"],
  ])("rejects %j naming %s", (patch, field) => {
    const result = validateSettings(patch);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.field).toBe(field);
      expect(result.message.startsWith(field)).toBe(true);
    }
  });

  it("rejects a field named __proto__ instead of letting it replace a prototype", () => {
    const top = validateSettings(JSON.parse('{"__proto__": {"injection": {"timeInterval": 9}}}'));
    expect(top).toMatchObject({ ok: false, field: "settings", message: "settings has unknown field(s) __proto__" });
    const nested = validateSettings(JSON.parse('{"injection": {"__proto__": {"timeInterval": 9}}}'));
    expect(nested).toMatchObject({ ok: false, field: "injection" });
    expect(Object.getPrototypeOf(mergeSettings({}, JSON.parse('{"__proto__": {"x": 1}}')))).toBe(Object.prototype);
  });

  it("accepts a template whose other braces stay literal", () => {
    expect(validateSettings({ injection: { template: '{"reminder": "{runtime_state}"}' } }).ok).toBe(true);
  });

  it("requires year, month and day in the time format, ignoring quoted literals", () => {
    expect(timeFormatProblem("yyyy-MM-dd HH:mm")).toBeUndefined();
    expect(timeFormatProblem("'yMd' HH:mm")).toMatch(/year/);
  });

  it("falls back to the defaults for invalid stored settings", () => {
    expect(resolveSettings({ injection: { timeInterval: "soon" } })).toEqual(defaultSettings());
    expect(resolveSettings(null)).toEqual(defaultSettings());
  });

  it.each([
    ["yyyy-MM-dd'T'HH:mm:ss"],
    ["yyyy-MM-dd HH:mm"],
    ["yyyy-MM-dd'T'HH:mm:ssXXX"],
    ["yyyy-MM-dd hh:mm a"],
    ["EEEE, MMMM do yyyy, h:mm a"],
    ["dd.MM.yyyy HH:mm"],
  ])("accepts the time format %s: every test instant reads back", (pattern) => {
    expect(timeFormatProblem(pattern)).toBeUndefined();
  });

  it.each([
    ["yyyy-MM-dd hh:mm:ss", /15:45Z in UTC is written "2026-07-01 03:45:00", which reads back as 2026-07-01T03:45Z/],
    ["yyyy-MM-dd HH", /reads back as/],
    ["yy-MM-dd HH:mm", /reads back as/],
    ["yyyy-MM-dd HH:mm zzz", /does not read back/],
    ["HH:mm:ss", /does not read back/],
    ["'yMd' HH:mm", /does not read back/],
    ["yyyy-MM-dd HH:mm:ss PPPPPPPP", /(at most 100|does not read back|not a valid)/],
    ["yyyy-MM-dd YYYY", /not a valid date-fns format/],
  ])("refuses the time format %s", (pattern, problem) => {
    expect(timeFormatProblem(pattern)).toMatch(problem);
  });

  it.each([
    ["+05:30", /not a known IANA timezone/],
    ["utc", /use "UTC"/],
    ["asia/shanghai", /use "Asia\/Shanghai"/],
    ["Mars/Olympus", /not a known IANA timezone/],
  ])("refuses the timezone %s", (timezone, problem) => {
    const result = validateSettings({ injection: { timezone } });
    expect(result).toMatchObject({ ok: false, field: "injection.timezone", message: expect.stringMatching(problem) });
  });

  it.each([
    ["UTC"],
    ["Asia/Shanghai"],
    ["America/New_York"],
    ["Asia/Kolkata"],
    ["Europe/Kyiv"],
    ["Asia/Calcutta"],
    ["America/Port-au-Prince"],
  ])("accepts the timezone %s", (timezone) => {
    expect(validateSettings({ injection: { timezone } }).ok).toBe(true);
  });

  it("reads a stored zone written before names had to be canonical instead of dropping every setting", () => {
    const settings = resolveSettings({ injection: { timezone: "asia/shanghai", timeInterval: 2 } });
    expect(settings.injection).toMatchObject({ timezone: "Asia/Shanghai", timeInterval: 2 });
  });

  it.each([["current-time"], ["timezone"], ["time-since-last-message"], ["tasks"], ["context-length"]])(
    "refuses an extra field named %s",
    (key) => {
      const result = validateSettings({ injection: { extraFields: { workspace: "x", [key]: "forged" } } });
      expect(result).toMatchObject({
        ok: false,
        field: `injection.extraFields.${key}`,
        message: expect.stringMatching(/built-in field name/),
      });
    },
  );

  it("refuses a template that could render a hint over the ceiling, naming it", () => {
    const template = `<r>${"{runtime_state}".repeat(8)}</r>`;
    expect(validateSettings({ injection: { template } })).toMatchObject({ ok: false, field: "injection.template" });
    // The open tasks' list takes room of its own: a template that fits with counts only does not with the list.
    expect(validateSettings({ injection: { template: `<r>${"{runtime_state}".repeat(2)}</r>` } })).toMatchObject({
      ok: false,
      field: "injection.template",
    });
    // The reported 43 MB hint: a 74 KB template repeating the placeholder.
    const huge = "{runtime_state}".repeat(5_000);
    expect(validateSettings({ injection: { template: huge } })).toMatchObject({
      ok: false,
      field: "injection.template",
    });
    expect(
      validateSettings({ injection: { tasksDetail: "counts", template: `<r>${"{runtime_state}".repeat(2)}</r>` } }).ok,
    ).toBe(true);
  });

  it("refuses extra fields that could push the hint over the ceiling, counting their escaped size", () => {
    const fits = { workspace: "x".repeat(3_000) };
    const counts = { tasksDetail: "counts" as const };
    expect(
      validateSettings({ injection: { ...counts, extraFields: { a: "x".repeat(1_600), b: "x".repeat(1_600) } } }).ok,
    ).toBe(true);
    // With the open tasks' list (the default) the same fields leave it no room.
    expect(
      validateSettings({ injection: { extraFields: { a: "x".repeat(1_600), b: "x".repeat(1_600) } } }),
    ).toMatchObject({ ok: false, field: "injection.extraFields" });
    expect(
      validateSettings({ injection: { extraFields: { a: "x".repeat(2_000), b: "x".repeat(2_000) } } }),
    ).toMatchObject({
      ok: false,
      field: "injection.extraFields",
    });
    expect(validateSettings({ injection: { extraFields: { a: "<".repeat(900) } } })).toMatchObject({
      ok: false,
      field: "injection.extraFields",
    });
    expect(fits.workspace.length).toBeGreaterThan(2_000); // over the per-value limit on its own
    expect(validateSettings({ injection: { extraFields: fits } }).ok).toBe(false);
  });

  it("the built-in texts stay within the bound the ceiling is computed with", () => {
    const n = Number.MAX_SAFE_INTEGER;
    expect(tasksText({ pending: n, inProgress: n }, true).length).toBeLessThanOrEqual(MAX_BUILT_IN_TEXT_CHARS);
    expect(contextText(n, n).length).toBeLessThanOrEqual(MAX_BUILT_IN_TEXT_CHARS);
    expect(sinceText(n).length).toBeLessThanOrEqual(MAX_SINCE_CHARS);
  });

  it("a hint from settings at the edge of the ceiling, with every field at its longest, fits it in full", () => {
    const base = {
      ...defaultSettings("America/North_Dakota/New_Salem").injection,
      timeFormat: "EEEE, MMMM do yyyy, h:mm a",
      tasksDetail: "counts" as const,
    };
    const room = HINT_MAX_CHARS - worstCaseHintChars(base) - "<workspace></workspace>\n".length;
    const value = "&".repeat(Math.floor(room / 5));
    expect(validateSettings({ injection: { ...base, extraFields: { workspace: `${value}&` } } }).ok).toBe(false);
    const check = validateSettings({ injection: { ...base, extraFields: { workspace: value } } });
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    const n = Number.MAX_SAFE_INTEGER;
    const hint = decideInjection({
      config: check.settings.injection,
      now: new Date("2026-09-30T21:37:00Z"),
      scan: { tasksSeen: false },
      tasks: { pending: n, inProgress: n },
      tasksEditedByPerson: true,
      isFirstCall: true,
      context: { inputTokens: n, contextWindow: n, triggerRatio: 0.8 },
      sinceLastReply: n,
    })!;
    expect(Object.keys(hint.fields)).toEqual([
      "current-time",
      "timezone",
      "time-since-last-message",
      "tasks",
      "context-length",
      "workspace",
    ]);
    expect(hint.text.length).toBeLessThanOrEqual(HINT_MAX_CHARS);
    expect(hint.text).toContain(`<workspace>${"&amp;".repeat(value.length)}</workspace>`);
    expect(hint.text.length).toBeGreaterThan(HINT_MAX_CHARS - 300);
  });

  it("never renders more than the ceiling, even from settings that skipped validation", () => {
    const fields: Array<[string, string]> = [
      ["current-time", "2026-07-01T12:00:00"],
      ["workspace", "<".repeat(10_000)],
    ];
    expect(renderHint("{runtime_state}".repeat(5_000), fields).length).toBeLessThanOrEqual(HINT_MAX_CHARS);
    expect(renderHint(DEFAULT_TEMPLATE, fields).length).toBeLessThanOrEqual(HINT_MAX_CHARS);
    expect(renderHint(DEFAULT_TEMPLATE, fields)).toContain("<current-time>2026-07-01T12:00:00</current-time>");
  });
});

describe("the sampling settings", () => {
  it("take a temperature from 0 to 2 and a whole number of output tokens, and name the field of a bad one", () => {
    expect(defaultSettings().sampling).toEqual({});
    const ok = validateSettings({ sampling: { temperature: 0.7, maxOutputTokens: 800 } });
    expect(ok.ok && ok.settings.sampling).toEqual({ temperature: 0.7, maxOutputTokens: 800 });
    expect(validateSettings({ sampling: { temperature: 0 } }).ok).toBe(true);
    expect(validateSettings({ sampling: { temperature: 2 } }).ok).toBe(true);
    const refusals: Array<[unknown, string]> = [
      [{ temperature: -0.1 }, "sampling.temperature must be from 0 to 2"],
      [{ temperature: 2.5 }, "sampling.temperature must be from 0 to 2"],
      [{ temperature: "hot" }, "sampling.temperature must be a number (not text)"],
      [{ maxOutputTokens: 0 }, "sampling.maxOutputTokens must be at least 1 token"],
      [{ maxOutputTokens: 12.5 }, "sampling.maxOutputTokens must be a whole number of tokens"],
      [{ maxOutputTokens: 1e12 }, "sampling.maxOutputTokens must be at most 1,000,000 tokens"],
      [{ topK: 3 }, "sampling has unknown field(s) topK"],
    ];
    for (const [sampling, message] of refusals) {
      const result = validateSettings({ sampling });
      expect(result.ok ? "accepted" : result.message, JSON.stringify(sampling)).toBe(message);
    }
    // null clears a value set before (the provider's default again); an absent one stays.
    const cleared = validateSettings(
      mergeSettings({ sampling: { temperature: 0.7, maxOutputTokens: 800 } }, { sampling: { temperature: null } }),
    );
    expect(cleared.ok && cleared.settings.sampling).toEqual({ maxOutputTokens: 800 });
    const clearedInstructions = validateSettings(
      mergeSettings({ prompt: { instructions: "x" } }, { prompt: { instructions: null } }),
    );
    expect(clearedInstructions.ok && clearedInstructions.settings.prompt).toEqual({});
    // Stored settings that went bad fall back to the defaults, as every other section does.
    expect(resolveSettings({ sampling: { temperature: 9 } }).sampling).toEqual({});
  });

  it("send the temperature, and the longest reply within the server's ceiling", () => {
    const sampling = (s: object) => ({ sampling: s });
    expect(samplingOptions(sampling({}), undefined)).toEqual({});
    expect(samplingOptions(sampling({}), 4096)).toEqual({ maxOutputTokens: 4096 });
    expect(samplingOptions(sampling({ maxOutputTokens: 300 }), 4096)).toEqual({ maxOutputTokens: 300 });
    expect(samplingOptions(sampling({ maxOutputTokens: 90_000 }), 4096)).toEqual({ maxOutputTokens: 4096 });
    expect(samplingOptions(sampling({ maxOutputTokens: 300 }), undefined)).toEqual({ maxOutputTokens: 300 });
    expect(samplingOptions(sampling({ temperature: 0 }), undefined)).toEqual({ temperature: 0 });
  });
});

describe("the resolved settings kept", () => {
  it("stay within their byte budget when prompts are long", () => {
    for (let i = 0; i < 40; i++) {
      const settings = resolveSettings({ prompt: { memory: `${i} ${"remember this. ".repeat(13_000)}` } });
      expect(settings.prompt.memory).toContain(`${i} remember`);
    }
    const cache = sharedCacheSizes().settings!;
    expect(cache.bytes).toBeLessThanOrEqual(RESOLVED_SETTINGS_MAX_BYTES);
    expect(cache.entries).toBeLessThan(40);
  });
});
