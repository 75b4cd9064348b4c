// Without an OTLP endpoint a server loads no OpenTelemetry code: startTracing() imports the SDK only behind the check.
// Checked in a plain `node` process (the module loader's hook sees every module it loads), with the variable set too so
// that the check can fail.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tracingConfigured } from "./tracing.ts";

const PROBE = `
import { registerHooks } from "node:module";
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
const { startTracing } = await import(process.env.TRACING_MODULE);
const started = await startTracing();
console.log(JSON.stringify({ started, otel: loaded.filter((url) => /@opentelemetry|@ai-sdk\\/otel/.test(url)) }));
`;

function probe(env: Record<string, string>): { started: boolean; otel: string[] } {
  const clean = { ...process.env };
  for (const key of Object.keys(clean)) if (key.startsWith("OTEL_")) delete clean[key];
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", PROBE], {
    env: { ...clean, ...env, TRACING_MODULE: path.join(import.meta.dirname, "tracing.ts") },
    encoding: "utf8",
  });
  return JSON.parse(output.trim().split("\n").at(-1)!);
}

describe("tracing", () => {
  it("loads no OpenTelemetry module without an OTLP endpoint, and the SDK with one", () => {
    expect(probe({})).toEqual({ started: false, otel: [] });
    expect(probe({ OTEL_EXPORTER_OTLP_ENDPOINT: "" })).toEqual({ started: false, otel: [] });
    const started = probe({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    expect(started.started).toBe(true);
    expect(started.otel.some((url) => url.includes("@opentelemetry/sdk-trace"))).toBe(true);
    expect(started.otel.some((url) => url.includes("@ai-sdk/otel"))).toBe(true);
  });

  it("is on with either endpoint variable, off with OTEL_SDK_DISABLED=true", () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "TRUE" })).toBe(
      false,
    );
  });
});
