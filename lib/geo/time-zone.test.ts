import { describe, it, expect } from "vitest";

import { localIsoString, isValidTimeZone, localParts, parseLocalDate, parseLocalTime, timeZoneAt, zonedTimeToUtc } from "./time-zone";

const iso = (date: string, time: string, zone: string) => zonedTimeToUtc(date, time, zone).toISOString();

describe("timeZoneAt", () => {
  it("finds the zone of cities on both hemispheres", () => {
    expect(timeZoneAt(41.9028, 12.4964)).toBe("Europe/Rome");
    expect(timeZoneAt(40.7128, -74.006)).toBe("America/New_York");
    expect(timeZoneAt(-33.8688, 151.2093)).toBe("Australia/Sydney");
    expect(timeZoneAt(-36.8485, 174.7633)).toBe("Pacific/Auckland");
  });

  it("gives a nautical zone over the open sea", () => {
    expect(timeZoneAt(0, -30)).toBe("Etc/GMT+2");
    expect(timeZoneAt(30, -40)).toBe("Etc/GMT+3");
    expect(timeZoneAt(-40, -120)).toBe("Etc/GMT+8");
  });

  it("rejects points that are not on Earth", () => {
    expect(() => timeZoneAt(91, 0)).toThrow(RangeError);
    expect(() => timeZoneAt(0, 180.5)).toThrow(RangeError);
    expect(() => timeZoneAt(Number.NaN, 0)).toThrow(RangeError);
  });
});

describe("localParts", () => {
  it("reads the wall clock either side of Rome's spring-forward", () => {
    expect(localParts(new Date("2027-03-28T00:59:00Z"), "Europe/Rome")).toEqual({
      year: 2027,
      month: 3,
      day: 28,
      hour: 1,
      minute: 59,
      weekday: 7,
    });
    expect(localParts(new Date("2027-03-28T01:00:00Z"), "Europe/Rome")).toEqual({
      year: 2027,
      month: 3,
      day: 28,
      hour: 3,
      minute: 0,
      weekday: 7,
    });
  });

  it("reads the repeated hour of New York's fall-back twice", () => {
    expect(localParts(new Date("2027-11-07T05:30:00Z"), "America/New_York")).toMatchObject({ day: 7, hour: 1, minute: 30 });
    expect(localParts(new Date("2027-11-07T06:30:00Z"), "America/New_York")).toMatchObject({ day: 7, hour: 1, minute: 30 });
  });

  it("crosses the date line and the year ahead of UTC", () => {
    expect(localParts(new Date("2026-12-31T13:00:00Z"), "Australia/Sydney")).toEqual({
      year: 2027,
      month: 1,
      day: 1,
      hour: 0,
      minute: 0,
      weekday: 5,
    });
    expect(localParts(new Date("2027-06-01T00:00:00Z"), "Etc/GMT+2")).toEqual({
      year: 2027,
      month: 5,
      day: 31,
      hour: 22,
      minute: 0,
      weekday: 1,
    });
  });

  it("prints midnight as hour 0", () => {
    expect(localParts(new Date("2027-01-01T00:00:00Z"), "UTC").hour).toBe(0);
  });
});

describe("zonedTimeToUtc", () => {
  it("uses the offset in force on the day", () => {
    expect(iso("2027-07-15", "18:00", "Europe/Rome")).toBe("2027-07-15T16:00:00.000Z");
    expect(iso("2027-01-15", "18:00", "Europe/Rome")).toBe("2027-01-15T17:00:00.000Z");
    expect(iso("2027-01-15", "18:00", "Australia/Sydney")).toBe("2027-01-15T07:00:00.000Z");
    expect(iso("2027-07-15", "18:00", "Australia/Sydney")).toBe("2027-07-15T08:00:00.000Z");
    expect(iso("2027-01-01", "00:00", "Asia/Kolkata")).toBe("2026-12-31T18:30:00.000Z");
    expect(iso("2027-06-01", "12:00", "Etc/GMT+2")).toBe("2027-06-01T14:00:00.000Z");
  });

  it("moves a time inside a spring-forward gap to the first instant after it", () => {
    expect(iso("2027-03-28", "01:59", "Europe/Rome")).toBe("2027-03-28T00:59:00.000Z");
    expect(iso("2027-03-28", "02:00", "Europe/Rome")).toBe("2027-03-28T01:00:00.000Z");
    expect(iso("2027-03-28", "02:30", "Europe/Rome")).toBe("2027-03-28T01:00:00.000Z");
    expect(iso("2027-03-28", "03:00", "Europe/Rome")).toBe("2027-03-28T01:00:00.000Z");
    expect(iso("2027-03-14", "02:30", "America/New_York")).toBe("2027-03-14T07:00:00.000Z");
    expect(iso("2027-10-03", "02:30", "Australia/Sydney")).toBe("2027-10-02T16:00:00.000Z");
    expect(iso("2027-09-26", "02:30", "Pacific/Auckland")).toBe("2027-09-25T14:00:00.000Z");
    // Chile springs forward at midnight, so the day itself starts at 01:00.
    expect(iso("2027-09-05", "00:00", "America/Santiago")).toBe("2027-09-05T04:00:00.000Z");
  });

  it("moves a day that never happened to the start of the next (Samoa, 30 Dec 2011)", () => {
    expect(iso("2011-12-30", "12:00", "Pacific/Apia")).toBe("2011-12-30T10:00:00.000Z");
  });

  it("takes the earlier instant for a time that happens twice", () => {
    expect(iso("2027-10-31", "02:30", "Europe/Rome")).toBe("2027-10-31T00:30:00.000Z");
    expect(iso("2027-10-31", "03:00", "Europe/Rome")).toBe("2027-10-31T02:00:00.000Z");
    expect(iso("2027-11-07", "01:30", "America/New_York")).toBe("2027-11-07T05:30:00.000Z");
    expect(iso("2027-04-04", "02:30", "Australia/Sydney")).toBe("2027-04-03T15:30:00.000Z");
    expect(iso("2027-04-04", "02:30", "Pacific/Auckland")).toBe("2027-04-03T13:30:00.000Z");
  });

  it("round-trips every half hour of both DST days in four zones, except inside the gaps", () => {
    const days: [string, string][] = [
      ["Europe/Rome", "2027-03-28"],
      ["Europe/Rome", "2027-10-31"],
      ["America/New_York", "2027-03-14"],
      ["America/New_York", "2027-11-07"],
      ["Australia/Sydney", "2027-04-04"],
      ["Australia/Sydney", "2027-10-03"],
      ["Pacific/Auckland", "2027-04-04"],
      ["Pacific/Auckland", "2027-09-26"],
    ];
    let gaps = 0;
    for (const [zone, date] of days) {
      for (let m = 0; m < 24 * 60; m += 30) {
        const time = `${String((m / 60) | 0).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
        const p = localParts(zonedTimeToUtc(date, time, zone), zone);
        const back = `${String(p.hour).padStart(2, "0")}:${String(p.minute).padStart(2, "0")}`;
        if (back !== time) {
          gaps++;
          expect(back).toBe("03:00"); // every gap here ends at 03:00 local
        }
      }
    }
    // 02:00 and 02:30 on each of the four spring-forward days.
    expect(gaps).toBe(8);
  });

  it("rejects impossible dates, times and zones", () => {
    expect(() => zonedTimeToUtc("2027-02-29", "12:00", "UTC")).toThrow(RangeError);
    expect(zonedTimeToUtc("2028-02-29", "12:00", "UTC").toISOString()).toBe("2028-02-29T12:00:00.000Z");
    expect(() => zonedTimeToUtc("2027-06-01", "24:00", "UTC")).toThrow(RangeError);
    expect(() => zonedTimeToUtc("2027-6-1", "12:00", "UTC")).toThrow(RangeError);
    expect(() => zonedTimeToUtc("2027-06-01", "7:00", "UTC")).toThrow(RangeError);
    expect(() => zonedTimeToUtc("2027-06-01", "12:00", "Mars/Olympus_Mons")).toThrow(RangeError);
  });
});

describe("parsers", () => {
  it("accepts only real calendar dates and times of day", () => {
    expect(parseLocalDate("2028-02-29")).toEqual({
      year: 2028,
      month: 2,
      day: 29,
    });
    expect(parseLocalDate("2027-02-29")).toBeNull();
    expect(parseLocalDate("2027-13-01")).toBeNull();
    expect(parseLocalDate("0000-01-01")).toBeNull();
    expect(parseLocalDate("2027-06-01T00:00")).toBeNull();
    expect(parseLocalTime("23:59")).toEqual({ hour: 23, minute: 59 });
    expect(parseLocalTime("00:00")).toEqual({ hour: 0, minute: 0 });
    expect(parseLocalTime("24:00")).toBeNull();
    expect(parseLocalTime("12:60")).toBeNull();
  });

  it("knows which zone names exist", () => {
    expect(isValidTimeZone("Europe/Rome")).toBe(true);
    expect(isValidTimeZone("Etc/GMT+2")).toBe(true);
    expect(isValidTimeZone("Europe/Atlantis")).toBe(false);
  });
});

describe("localIsoString", () => {
  it("writes the instant in the zone's local time with its offset, the same instant", () => {
    const winter = new Date("2026-11-29T17:00:00Z");
    expect(localIsoString(winter, "Europe/Rome")).toBe("2026-11-29T18:00:00+01:00");
    expect(localIsoString(new Date("2026-07-01T17:00:30.500Z"), "Europe/Rome")).toBe("2026-07-01T19:00:30+02:00");
    expect(localIsoString(winter, "America/St_Johns")).toBe("2026-11-29T13:30:00-03:30");
    expect(localIsoString(winter, "Asia/Kathmandu")).toBe("2026-11-29T22:45:00+05:45");
    expect(Date.parse(localIsoString(winter, "Pacific/Auckland"))).toBe(winter.getTime());
  });
});

describe("the wall clock, with each zone-day's offset remembered", () => {
  // The reference: ICU's own reading, through formatters of this test's.
  const formatters = new Map<string, Intl.DateTimeFormat>();
  const reference = (ms: number, timeZone: string) => {
    const format =
      formatters.get(timeZone) ??
      new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric" });
    formatters.set(timeZone, format);
    const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
    return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour) % 24, minute: Number(parts.minute) };
  };
  const ZONES = [
    "Europe/Rome",
    "America/New_York",
    "America/St_Johns", // −3:30, DST
    "Australia/Lord_Howe", // +10:30, a half-hour DST
    "Asia/Kathmandu", // +5:45 since 1986, +5:30 before
    "Pacific/Chatham", // +12:45 / +13:45
    "Asia/Tehran",
    "Pacific/Apia", // skipped 30 December 2011
    "Africa/Monrovia", // −0:44:30 until 1972
    "Europe/Amsterdam", // +0:19:32 in the 1930s
    "Etc/GMT+2",
  ];

  it("reads what ICU reads, on ordinary days, on the days the offset changes and in the past", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const from = Date.UTC(1900, 0, 1);
    const to = Date.UTC(2040, 0, 1);
    const instants = [
      ...Array.from({ length: 3000 }, () => from + Math.floor(random() * (to - from))),
      // Around transitions: every 7 minutes across the spring and autumn nights of 2026 and 2011.
      ...[Date.UTC(2026, 2, 28), Date.UTC(2026, 9, 24), Date.UTC(2026, 3, 4), Date.UTC(2026, 9, 3), Date.UTC(2011, 11, 29), Date.UTC(1972, 0, 6)].flatMap(
        (day) => Array.from({ length: (3 * 86_400_000) / 420_000 }, (_, i) => day + i * 420_000 + 13_000),
      ),
    ];
    const wrong: string[] = [];
    for (const zone of ZONES) {
      for (const ms of instants) {
        const { year, month, day, hour, minute } = localParts(new Date(ms), zone);
        const got = { year, month, day, hour, minute };
        const want = reference(ms, zone);
        if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${zone} ${new Date(ms).toISOString()}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it("writes the offset of each side of a change", () => {
    // Lord Howe leaves +11:00 for +10:30 at 02:00 local on 5 April 2026 (15:00 UTC).
    expect(localIsoString(new Date("2026-04-04T14:59:59Z"), "Australia/Lord_Howe")).toBe("2026-04-05T01:59:59+11:00");
    expect(localIsoString(new Date("2026-04-04T15:00:00Z"), "Australia/Lord_Howe")).toBe("2026-04-05T01:30:00+10:30");
    // Apia went from 29 December 2011 at 23:59:59 (−10:00) straight to 31 December (+14:00).
    expect(localIsoString(new Date("2011-12-30T09:59:59Z"), "Pacific/Apia")).toBe("2011-12-29T23:59:59-10:00");
    expect(localIsoString(new Date("2011-12-30T10:00:00Z"), "Pacific/Apia")).toBe("2011-12-31T00:00:00+14:00");
  });
});
