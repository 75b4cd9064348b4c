// Reading a recorded time must not depend on the server's own zone: this file runs in New York, where
// 2026-03-08 02:30 does not exist (the clocks jump from 02:00 to 03:00).
process.env.TZ = "America/New_York";

import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../chat-message.ts";
import { defaultSettings } from "../settings.ts";
import { decideInjection, recordedTime } from "./decide-injection.ts";
import { readTime, writeTime } from "./read-time.ts";
import { renderHint } from "./render-hint.ts";
import { scanContext } from "./scan-context.ts";

const config = defaultSettings("Asia/Shanghai").injection;
const hintText = (time: string, zone: string) =>
  renderHint(config.template, [
    ["current-time", time],
    ["timezone", zone],
  ]);

describe("reading a recorded time in a server zone with DST", () => {
  it("runs in New York", () => {
    expect(new Date("2026-03-08T12:00:00Z").getTimezoneOffset()).toBe(240);
  });

  it("a Shanghai wall time inside New York's DST gap reads as the right instant", () => {
    expect(recordedTime(hintText("2026-03-08T02:30:00", "Asia/Shanghai"), config)?.toISOString()).toBe(
      "2026-03-07T18:30:00.000Z",
    );
    expect(readTime("2026-03-08 02:30", "yyyy-MM-dd HH:mm", "UTC")?.toISOString()).toBe("2026-03-08T02:30:00.000Z");
  });

  it("so a hint written ten minutes ago is not taken for one from the future", () => {
    const reply: ChatMessage = {
      id: "a",
      role: "assistant",
      parts: [
        {
          type: "data-hint",
          id: "h",
          data: {
            source: config.injectionSource,
            fields: {},
            text: hintText("2026-03-08T02:30:00", "Asia/Shanghai"),
            createdAt: "",
          },
        },
      ],
    };
    const scan = scanContext([reply], { source: config.injectionSource, taskToolNames: config.taskToolNames });
    const decide = (now: string) =>
      decideInjection({
        config,
        now: new Date(now),
        scan,
        tasks: { pending: 0, inProgress: 0 },
        tasksEditedByPerson: false,
        isFirstCall: false,
      });
    expect(decide("2026-03-07T18:40:00Z")).toBeNull();
    expect(decide("2026-03-07T19:10:00Z")?.fields["current-time"]).toBe("2026-03-08T03:10:00");
  });

  it.each([
    ["yyyy-MM-dd'T'HH:mm:ssXXX", "Europe/Berlin", "2026-03-29T01:30:00Z"],
    ["yyyy-MM-dd hh:mm a", "America/New_York", "2026-11-01T07:30:00Z"],
    ["EEEE, MMMM do yyyy, h:mm:ss a", "Asia/Calcutta", "2025-12-31T23:59:00Z"],
  ])("%s in %s writes and reads back %s", (pattern, zone, iso) => {
    expect(readTime(writeTime(new Date(iso), zone, pattern), pattern, zone)?.toISOString()).toBe(
      new Date(iso).toISOString(),
    );
  });
});

describe("writing a time, kept per second", () => {
  it("writes each second's own text and keeps milliseconds where the pattern shows them", () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 11, 1, 12, 0, 0) + ms);
    expect(writeTime(at(100), "UTC", "yyyy-MM-dd'T'HH:mm:ss")).toBe("2026-12-01T12:00:00");
    expect(writeTime(at(900), "UTC", "yyyy-MM-dd'T'HH:mm:ss")).toBe("2026-12-01T12:00:00");
    expect(writeTime(at(1000), "UTC", "yyyy-MM-dd'T'HH:mm:ss")).toBe("2026-12-01T12:00:01");
    expect(writeTime(at(100), "UTC", "HH:mm:ss.SSS")).toBe("12:00:00.100");
    expect(writeTime(at(900), "UTC", "HH:mm:ss.SSS")).toBe("12:00:00.900");
    expect(writeTime(at(900), "Asia/Tokyo", "HH:mm:ss")).toBe("21:00:00");
  });
});
