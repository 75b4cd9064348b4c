import { describe, expect, it } from "vitest";
import { DEFAULT_TEMPLATE, defaultSettings, mergeSettings, resolveSettings, timeFormatProblem, validateSettings } from "./settings.ts";

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
    });
    expect(s.injection.template).toBe(DEFAULT_TEMPLATE);
    expect(s.context).toEqual({ triggerRatio: 0.8, reserveRatio: 0.1 });
  });

  it("merges section by section", () => {
    const merged = mergeSettings({ injection: { timezone: "UTC", timeInterval: 1 } }, { injection: { timeInterval: 2 } });
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
    expect(top).toMatchObject({ ok: false, field: "settings", message: "settings unknown field(s) __proto__" });
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
});
