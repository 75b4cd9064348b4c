import { describe, expect, it } from "vitest";
import { isDiskFull } from "./disk-full.ts";

describe("isDiskFull", () => {
  it("recognises a full disk however the driver wraps it", () => {
    expect(isDiskFull(Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error("could not extend file"), { code: "53100" }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error("write failed"), { code: "ENOSPC" }))).toBe(true);
    const prisma = Object.assign(new Error("Invalid `prisma.message.create()` invocation"), {
      meta: {
        driverAdapterError: {
          cause: { kind: "sqlite", originalCode: "13", originalMessage: "database or disk is full" },
        },
      },
    });
    expect(isDiskFull(prisma)).toBe(true);
    expect(isDiskFull(new Error("outer", { cause: new Error("inner", { cause: { code: "ENOSPC" } }) }))).toBe(true);
  });

  it("leaves other errors alone", () => {
    expect(isDiskFull(new Error("database is locked"))).toBe(false);
    expect(isDiskFull(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }))).toBe(false);
    expect(isDiskFull(undefined)).toBe(false);
    const loop: Record<string, unknown> = { message: "x" };
    loop.cause = loop;
    expect(isDiskFull(loop)).toBe(false);
  });
});
