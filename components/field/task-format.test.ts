import { describe, expect, it } from "vitest";
import { angleLabel } from "@/components/ui/angle-label";
import {
  formatClock,
  outboxTitle,
  formatDistance,
  formatStamp,
  formatWindow,
  hoursText,
  namedChecks,
  sceneTexts,
  spokenDistance,
  timeOfDayText,
  whereText,
  windowPhase,
  zoneLabel,
} from "./task-format";

describe("task text", () => {
  it("formats distances as a sign would, and in words", () => {
    expect(formatDistance(240)).toBe("240 m");
    expect(formatDistance(999.6)).toBe("1000 m");
    expect(formatDistance(1234)).toBe("1.2 km");
    expect(formatDistance(14_400)).toBe("14 km");
    expect(spokenDistance(240)).toBe("240 metres");
    expect(spokenDistance(2000)).toBe("2 kilometres");
  });

  it("writes distances in the reader's locale: its digits and decimal sign, miles and feet for en-US", () => {
    expect(formatDistance(1234, "es")).toBe("1,2 km");
    expect(formatDistance(1234, "de")).toBe("1,2 km");
    expect(formatDistance(100, "en-US")).toBe("328 ft");
    expect(formatDistance(2414, "en-US")).toBe("1.5 mi");
    expect(spokenDistance(100, "en-US")).toBe("328 feet");
    expect(formatDistance(240, "ar-EG")).toMatch(/^[٠-٩]+/);
    expect(spokenDistance(240, "es")).toBe("240 metros");
  });

  it("names angles and zones in words", () => {
    expect(angleLabel("parking_lot")).toBe("Parking lot");
    expect(angleLabel("front")).toBe("Front");
    expect(zoneLabel("Europe/Rome")).toBe("Rome time");
    expect(zoneLabel("America/New_York")).toBe("New York time");
    expect(zoneLabel("UTC")).toBe("UTC time");
  });

  it("writes a time in the place's zone, in the zoomer's locale", () => {
    const inRome = { timeZone: "Europe/Rome" };
    expect(formatStamp("2025-06-03T12:00:00Z", { ...inRome, locale: "en-GB" })).toBe("Tue 3 Jun, 14:00");
    expect(formatClock("2025-06-03T14:23:00Z", { ...inRome, locale: "en-GB" })).toBe("16:23");
    expect(formatClock("2025-06-03T14:23:00Z", { ...inRome, locale: "en-US" })).toBe("04:23 PM");
    expect(formatStamp("2025-06-03T12:00:00Z", { timeZone: "Nowhere/Unknown" })).toBeNull();
  });

  it("never mixes hour cycles: a reservation, a deadline and a window in one locale read alike", () => {
    for (const [locale, twelveHour] of [
      ["en-US", true],
      ["en-GB", false],
      ["it-IT", false],
    ] as const) {
      const style = { timeZone: "Europe/Rome", locale };
      const texts = [
        formatClock("2025-06-03T14:23:00Z", style),
        formatStamp("2025-06-03T15:00:00Z", style),
        formatWindow({ starts_at: "2025-06-03T16:00:00Z", ends_at: "2025-06-03T19:00:00Z", local: "" }, style),
      ].join(" | ");
      // The range says a shared PM once ("6:00 – 9:00 PM"): every time carries its half of the day.
      if (twelveHour) expect(texts.match(/\b(AM|PM)\b/g)?.length).toBeGreaterThanOrEqual(3);
      else expect(texts).not.toMatch(/AM|PM/);
    }
  });

  it("says a window in the place's time, whatever the browser's zone, across midnight and DST", () => {
    const rome = { timeZone: "Europe/Rome", locale: "en-GB" };
    // Summer: UTC+2.
    expect(formatWindow({ starts_at: "2025-06-01T16:00:00Z", ends_at: "2025-06-01T19:00:00Z", local: "" }, rome)).toBe("Sun 1 Jun, 18:00–21:00");
    expect(formatWindow({ starts_at: "2026-11-23T23:00:00Z", ends_at: "2026-11-24T23:00:00Z", local: "" }, rome)).toBe("Tue 24 Nov, all day");
    expect(formatWindow({ starts_at: "2026-11-24T21:00:00Z", ends_at: "2026-11-24T23:00:00Z", local: "" }, rome)).toBe("Tue 24 Nov, 22:00–midnight");
    // Intl's range: the locale's own dash and spaces around it (thin spaces in current ICU).
    expect(formatWindow({ starts_at: "2026-11-24T21:00:00Z", ends_at: "2026-11-25T01:00:00Z", local: "" }, rome)).toMatch(
      /^Tue 24 Nov, 22:00\s–\sWed 25 Nov, 02:00$/,
    );
    // The day the clocks go back is 25 hours long, and still one day.
    expect(formatWindow({ starts_at: "2025-10-25T22:00:00Z", ends_at: "2025-10-26T23:00:00Z", local: "" }, rome)).toBe("Sun 26 Oct, all day");
    expect(
      formatWindow({ starts_at: "2025-06-01T16:00:00Z", ends_at: "2025-06-01T19:00:00Z", local: "as the API said" }, { timeZone: "Nowhere/Unknown" }),
    ).toBe("as the API said");
  });

  it('joins day and times with the locale\'s own punctuation (Arabic comma in Arabic), never a Latin ", " glued in', () => {
    const evening = { starts_at: "2026-11-24T17:00:00Z", ends_at: "2026-11-24T20:00:00Z", local: "" };
    const overnight = { starts_at: "2026-11-24T21:00:00Z", ends_at: "2026-11-25T01:00:00Z", local: "" };
    const at = (locale: string) => ({ timeZone: "Europe/Rome", locale });
    const ar = formatWindow(evening, at("ar"));
    expect(ar).toContain("،");
    expect(ar).not.toContain(", ");
    expect(ar).toMatch(/نوفمبر/);
    expect(formatWindow(overnight, at("ar"))).not.toContain(", ");
    expect(formatWindow(overnight, at("ar"))).toMatch(/الثلاثاء.*الأربعاء/);
    expect(formatWindow(evening, at("de"))).toMatch(/^Di\., 24\. Nov\., 18:00\s?[–-]\s?21:00/);
    expect(formatWindow(overnight, at("de"))).toMatch(/^Di\., 24\. Nov\., 22:00\s–\sMi\., 25\. Nov\., 02:00$/);
    expect(formatWindow(evening, at("en-GB"))).toBe("Tue 24 Nov, 18:00–21:00");
    // The same as Intl's own range, whatever this runtime's ICU version writes.
    const intl = new Intl.DateTimeFormat("ar", {
      timeZone: "Europe/Rome",
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
    });
    expect(ar).toBe(intl.formatRange(new Date(evening.starts_at), new Date(evening.ends_at)));
  });

  it("places now before, inside or after a window", () => {
    const w = { starts_at: "2025-06-01T16:00:00Z", ends_at: "2025-06-01T19:00:00Z" };
    expect(windowPhase(w, Date.parse("2025-06-01T15:59:00Z"))).toBe("before");
    expect(windowPhase(w, Date.parse("2025-06-01T16:00:00Z"))).toBe("open");
    expect(windowPhase(w, Date.parse("2025-06-01T19:00:00Z"))).toBe("closed");
  });

  it("lists checks in reading order, unknown ones last, never counting not-evaluated as passed", () => {
    const check = (status: string, passed: boolean) => ({ status, passed, score: passed ? 1 : 0, message: status, instruction: null });
    const checks = namedChecks({
      status: "approved",
      instructions: [],
      ai_checks: {
        obstruction: check("not_evaluated", false),
        new_check: check("passed", true),
        location_match: check("passed", true),
        angle_match: check("failed", false),
      },
    });
    expect(checks.map((c) => [c.label, c.outcome])).toEqual([
      ["Place", "passed"],
      ["Direction", "failed"],
      ["Clear view", "not_evaluated"],
      ["New check", "passed"],
    ]);
  });
});

describe("the order's time of day on the task card", () => {
  it("states the requirement as times at the place, with the day when asked", () => {
    const daylight = { requirement: "daylight", local_date: "2026-11-27", local: "07:22–16:40" };
    expect(timeOfDayText(daylight, "Europe/Rome")).toBe("Daylight: 07:22–16:40 Rome time");
    expect(timeOfDayText({ ...daylight, local_date: "2026-11-28" }, "Europe/Rome", { withDay: true, locale: "en-GB" })).toBe(
      "Daylight: 07:22–16:40 Rome time, Sat 28 Nov",
    );
    expect(timeOfDayText({ requirement: "evening", local_date: "2026-06-21", local: null }, "Arctic/Longyearbyen", { locale: "en-GB" })).toBe(
      "Evening: the sun allows no time for it here on Sun 21 Jun",
    );
  });

  it("writes the sun's times in the zoomer's locale, as every other time on the page", () => {
    const daylight = {
      requirement: "daylight",
      local_date: "2026-11-27",
      local: "07:22–16:40",
      starts_at: "2026-11-27T06:22:00.000Z",
      ends_at: "2026-11-27T15:40:00.000Z",
    };
    expect(timeOfDayText(daylight, "Europe/Rome", { locale: "en-GB" })).toBe("Daylight: 07:22–16:40 Rome time");
    expect(timeOfDayText(daylight, "Europe/Rome", { locale: "en-US" })).toBe("Daylight: 07:22 AM–04:40 PM Rome time");
  });

  it("reads closed once the sun's time has passed, not open", () => {
    const sun = { starts_at: "2026-11-27T06:22:00.000Z", ends_at: "2026-11-27T15:40:00.000Z" };
    expect(windowPhase(sun, Date.parse("2026-11-27T15:48:00Z"))).toBe("closed");
    expect(windowPhase(sun, Date.parse("2026-11-27T12:00:00Z"))).toBe("open");
  });
});

describe("whereText", () => {
  it("states the radius and, for a facing angle, the direction the server checks", () => {
    expect(whereText({ angle: "front", category: "cultural_exterior", location: { name: "Duomo" } })).toBe("Within 60 m of Duomo, facing it (within 35°)");
    expect(whereText({ angle: "overview", category: "beach_facility_status", location: { name: "Lido" } })).toBe("Within 150 m of Lido");
  });
});

describe("the order's other asks on the task card", () => {
  it("states the order's local hours, saying when they run past midnight", () => {
    expect(hoursText("18:00-21:00")).toBe("18:00–21:00 local time");
    expect(hoursText("22:00-02:00")).toBe("22:00–02:00 local time, past midnight");
  });

  it("states the crowd and the brand the photo must show, and nothing when none is asked", () => {
    expect(sceneTexts({ minimum_crowd: "moderate", brand: "Acme" })).toEqual({
      crowd: "At least moderate — clearly in use",
      brand: "“Acme” must be readable in the photo",
    });
    expect(sceneTexts({ minimum_crowd: null, brand: null })).toEqual({ crowd: null, brand: null });
  });
});

describe("outboxTitle", () => {
  it("names the angle once", () => {
    expect(outboxTitle("Duomo", "Fachada")).toBe("Duomo · Fachada");
    expect(outboxTitle("Duomo · Fachada", "Fachada")).toBe("Duomo · Fachada");
    expect(outboxTitle("Duomo", null)).toBe("Duomo");
  });
});
