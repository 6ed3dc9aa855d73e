import { describe, expect, it } from "vitest";
import { formatDateTime, formatDuration, formatMs, formatRelative } from "./format-time";

const now = Date.parse("2025-03-10T12:00:00Z");
const at = (offsetSeconds: number) => new Date(now + offsetSeconds * 1000).toISOString();

describe("formatRelative", () => {
  it("calls the next few seconds now and the last few just now", () => {
    expect(formatRelative(at(3), now)).toBe("now");
    expect(formatRelative(at(-2), now)).toBe("just now");
  });
  it("uses seconds below a minute, then minutes, hours and days", () => {
    expect(formatRelative(at(58), now)).toBe("in 58 s");
    expect(formatRelative(at(-5 * 60), now)).toBe("5 min ago");
    expect(formatRelative(at(2 * 3600), now)).toBe("in 2 h");
    expect(formatRelative(at(-3 * 86_400), now)).toBe("3 days ago");
    expect(formatRelative(at(86_400), now)).toBe("in 1 day");
  });
});

describe("formatDuration", () => {
  it("picks the largest unit that reads as a whole number", () => {
    expect(formatDuration(1)).toBe("1 second");
    expect(formatDuration(90)).toBe("90 seconds");
    expect(formatDuration(600)).toBe("10 minutes");
    expect(formatDuration(86_400)).toBe("24 hours");
    expect(formatDuration(3 * 86_400)).toBe("3 days");
  });
  it("never goes negative", () => {
    expect(formatDuration(-5)).toBe("0 seconds");
  });
});

describe("formatMs", () => {
  it("shows milliseconds below a second and seconds above", () => {
    expect(formatMs(120.4)).toBe("120 ms");
    expect(formatMs(1234)).toBe("1.2 s");
  });
});

describe("in the reader's locale", () => {
  it("says relative times, durations and dates in German with the 24-hour clock", () => {
    expect(formatRelative(at(-5 * 60), now, "de")).toBe("vor 5 Min.");
    expect(formatRelative(at(-2), now, "de")).toBe("jetzt");
    expect(formatDuration(86_400, "de")).toBe("24 Stunden");
    expect(formatMs(1234, "de")).toBe("1,2 s");
    expect(formatDateTime("2025-03-10T15:04:05Z", "de")).toMatch(/^10\. März, 1\d:04:05$/);
  });
});
