import { describe, expect, it } from "vitest";
import { localParts } from "@/lib/geo/time-zone";
import { sunAltitudeDeg, SUNRISE_ALTITUDE_DEG } from "@/lib/geo/sun";
import { ONE_OFF_SEARCH_DAYS, nextWindows } from "./next-windows";

const florence = { lat: 43.7731, lng: 11.256, timeZone: "Europe/Rome" };
const longyearbyen = { lat: 78.22, lng: 15.65, timeZone: "Arctic/Longyearbyen" };
const minutes = (d: Date, timeZone: string) => {
  const p = localParts(d, timeZone);
  return p.hour * 60 + p.minute;
};
const day = (d: Date, timeZone: string) => {
  const p = localParts(d, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
};

describe("nextWindows", () => {
  it("keeps every window of an 18:00–20:00 order inside those hours, local time", () => {
    const now = new Date("2026-11-29T18:30:00Z"); // 19:30 in Florence: today's window is open
    const { windows, reasons } = nextWindows({ place: florence, rule: { frequency: "daily", time_window: "18:00-20:00" }, now, count: 5 });
    expect(reasons).toEqual([]);
    expect(windows).toHaveLength(5);
    expect(windows[0]?.start).toEqual(now);
    for (const w of windows) {
      expect(minutes(w.start, florence.timeZone)).toBeGreaterThanOrEqual(18 * 60);
      expect(minutes(w.end, florence.timeZone)).toBeLessThanOrEqual(20 * 60);
      expect(day(w.start, florence.timeZone)).toBe(day(w.end, florence.timeZone));
    }
    expect(new Set(windows.map((w) => day(w.start, florence.timeZone))).size).toBe(5);
  });

  it("finds no daylight in Longyearbyen in December: polar night, and when the sun is back", () => {
    const now = new Date("2026-12-10T10:00:00Z");
    const { windows, reasons } = nextWindows({ place: { ...longyearbyen, timeOfDay: "daylight" }, rule: null, now, count: 5 });
    expect(windows).toEqual([]);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]?.code).toBe("polar_night");
    expect(String(reasons[0]?.params.until)).toMatch(/^2027-02-/);
  });

  it("gives a one-off evening order the evenings of the coming days, the sun setting inside each", () => {
    const now = new Date("2026-06-01T08:00:00Z");
    const { windows } = nextWindows({ place: { ...florence, timeOfDay: "evening" }, rule: null, now, count: 5 });
    expect(windows).toHaveLength(5);
    for (const w of windows) {
      expect(w.start.getTime()).toBeGreaterThanOrEqual(now.getTime());
      expect(sunAltitudeDeg(w.start, florence.lat, florence.lng)).toBeGreaterThan(SUNRISE_ALTITUDE_DEG);
      expect(sunAltitudeDeg(w.end, florence.lat, florence.lng)).toBeLessThan(SUNRISE_ALTITUDE_DEG);
    }
  });

  it("gives a one-off order without a time of day the whole search span", () => {
    const now = new Date("2026-06-01T08:00:00Z");
    expect(nextWindows({ place: florence, rule: null, now, count: 5 }).windows).toEqual([
      { start: now, end: new Date(now.getTime() + ONE_OFF_SEARCH_DAYS * 86_400_000) },
    ]);
  });

  it("says when the sun is never inside the hours", () => {
    const now = new Date("2026-06-01T08:00:00Z");
    const { windows, reasons } = nextWindows({
      place: { ...florence, timeOfDay: "midday" },
      rule: { frequency: "daily", time_window: "18:00-20:00" },
      now,
      count: 5,
    });
    expect(windows).toEqual([]);
    expect(reasons.map((r) => r.code)).toEqual(["sun_never_in_window"]);
    expect(reasons[0]?.params).toMatchObject({ time_of_day: "midday", time_window: "18:00-20:00" });
  });

  it("waits for the season, and names polar night for event dates in it", () => {
    const now = new Date("2026-11-29T08:00:00Z");
    const summer = nextWindows({ place: florence, rule: { frequency: "weekly", day_of_week: 5, season: "summer_only" }, now, count: 5 });
    expect(summer.windows).toHaveLength(5);
    expect(localParts(summer.windows[0]?.start ?? now, florence.timeZone)).toMatchObject({ year: 2027, month: 6, weekday: 5 });

    const events = nextWindows({
      place: { ...longyearbyen, timeOfDay: "daylight" },
      rule: { frequency: "daily", event_nights_only: true, event_dates: ["2026-12-10", "2026-12-11"] },
      now,
      count: 5,
    });
    expect(events.windows).toEqual([]);
    expect(events.reasons.map((r) => r.code)).toEqual(["polar_night"]);
  });

  it("splits a monthly cycle into the days its hours allow, before the due day", () => {
    const now = new Date("2026-11-29T08:00:00Z");
    const { windows } = nextWindows({ place: florence, rule: { frequency: "monthly", deliver_before: 15, time_window: "09:00-11:00" }, now, count: 5 });
    expect(windows).toHaveLength(5);
    for (const w of windows) {
      const p = localParts(w.start, florence.timeZone);
      expect(p.month === 12 && p.day < 15).toBe(true);
      expect(minutes(w.start, florence.timeZone)).toBeGreaterThanOrEqual(9 * 60);
      expect(minutes(w.end, florence.timeZone)).toBeLessThanOrEqual(11 * 60);
    }
  });
});
