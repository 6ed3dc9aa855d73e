import { describe, it, expect } from "vitest";
import { sunWindow } from "@/lib/geo/sun";
import { zonedTimeToUtc } from "@/lib/geo/time-zone";

import {
  cycleAt,
  describeRule,
  MAX_CYCLES,
  nextCycles,
  parseDayOfMonth,
  parseTimeWindow,
  scheduleProblems,
  sunWindowOn,
  validateRule,
  type Cycle,
  type RecurrenceRule,
  type Where,
} from "./cycle-calendar";

const ROME = { lat: 41.9028, lng: 12.4964 };
const NEW_YORK = { lat: 40.7128, lng: -74.006 };
const SYDNEY = { lat: -33.8688, lng: 151.2093 };
const AUCKLAND = { lat: -36.8485, lng: 174.7633 };

const at = (s: string) => new Date(s);
/** The UTC instants of each cycle, the part DST gets wrong. */
const times = (cycles: Cycle[]) => cycles.map((c) => [c.local_date, c.starts_at, c.ends_at, c.dispatch_at]);

describe("weekly cycles across DST changes", () => {
  const sundayEvening: RecurrenceRule = {
    frequency: "weekly",
    day_of_week: 7,
    time_window: "18:00-21:00",
  };

  it("moves an 18:00 Rome window from 17:00Z to 16:00Z on the last Sunday of March 2027", () => {
    const cycles = nextCycles(sundayEvening, ROME, {
      from: at("2027-03-20T10:00:00Z"),
      count: 3,
    });
    expect(times(cycles)).toEqual([
      ["2027-03-21", "2027-03-21T17:00:00.000Z", "2027-03-21T20:00:00.000Z", "2027-03-20T17:00:00.000Z"],
      ["2027-03-28", "2027-03-28T16:00:00.000Z", "2027-03-28T19:00:00.000Z", "2027-03-27T16:00:00.000Z"],
      ["2027-04-04", "2027-04-04T16:00:00.000Z", "2027-04-04T19:00:00.000Z", "2027-04-03T16:00:00.000Z"],
    ]);
    expect(cycles.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(cycles[0]).toMatchObject({
      time_zone: "Europe/Rome",
      local_window: "18:00-21:00",
      crosses_midnight: false,
    });
  });

  it("moves it back to 17:00Z on the last Sunday of October 2027", () => {
    const cycles = nextCycles(sundayEvening, ROME, {
      from: at("2027-10-23T00:00:00Z"),
      count: 3,
    });
    expect(times(cycles)).toEqual([
      ["2027-10-24", "2027-10-24T16:00:00.000Z", "2027-10-24T19:00:00.000Z", "2027-10-23T16:00:00.000Z"],
      ["2027-10-31", "2027-10-31T17:00:00.000Z", "2027-10-31T20:00:00.000Z", "2027-10-30T17:00:00.000Z"],
      ["2027-11-07", "2027-11-07T17:00:00.000Z", "2027-11-07T20:00:00.000Z", "2027-11-06T17:00:00.000Z"],
    ]);
  });

  it("gives a whole Rome day 23 hours in March and 25 in October", () => {
    const march = nextCycles({ frequency: "weekly", day_of_week: 7 }, ROME, {
      from: at("2027-03-26T00:00:00Z"),
      count: 1,
    });
    expect(times(march)).toEqual([["2027-03-28", "2027-03-27T23:00:00.000Z", "2027-03-28T22:00:00.000Z", "2027-03-26T23:00:00.000Z"]]);
    const october = nextCycles({ frequency: "weekly", day_of_week: 7 }, ROME, {
      from: at("2027-10-29T00:00:00Z"),
      count: 1,
    });
    expect(times(october)).toEqual([["2027-10-31", "2027-10-30T22:00:00.000Z", "2027-10-31T23:00:00.000Z", "2027-10-29T22:00:00.000Z"]]);
  });

  it("handles New York's changes, including a window that straddles the missing hour", () => {
    const friday = nextCycles({ frequency: "weekly", day_of_week: 5, time_window: "18:00-21:00" }, NEW_YORK, {
      from: at("2027-03-06T12:00:00Z"),
      count: 2,
    });
    expect(times(friday).map((t) => t[1])).toEqual(["2027-03-12T23:00:00.000Z", "2027-03-19T22:00:00.000Z"]);

    const night: RecurrenceRule = {
      frequency: "weekly",
      day_of_week: 7,
      time_window: "01:30-03:30",
    };
    const [spring] = nextCycles(night, NEW_YORK, {
      from: at("2027-03-13T00:00:00Z"),
      count: 1,
    });
    // 01:30 EST to 03:30 EDT: one real hour.
    expect(spring).toMatchObject({
      starts_at: "2027-03-14T06:30:00.000Z",
      ends_at: "2027-03-14T07:30:00.000Z",
    });
    const [autumn] = nextCycles(night, NEW_YORK, {
      from: at("2027-11-06T00:00:00Z"),
      count: 1,
    });
    // 01:30 happens twice; the window opens at the first (EDT) and closes at 03:30 EST: three hours.
    expect(autumn).toMatchObject({
      starts_at: "2027-11-07T05:30:00.000Z",
      ends_at: "2027-11-07T08:30:00.000Z",
    });
  });

  it("has no cycle on a day whose window lies wholly inside the spring-forward gap", () => {
    const rule: RecurrenceRule = {
      frequency: "daily",
      time_window: "02:00-02:30",
    };
    const anchor = at("2027-03-12T12:00:00Z");
    const cycles = nextCycles(rule, NEW_YORK, { from: anchor, count: 3 });
    expect(cycles.map((c) => c.local_date)).toEqual(["2027-03-13", "2027-03-15", "2027-03-16"]);
    expect(cycles.map((c) => c.index)).toEqual([1, 3, 4]);
    expect(cycleAt(rule, NEW_YORK, 2, anchor)).toBeNull();
  });
});

describe("windows past midnight", () => {
  const lateNight: RecurrenceRule = {
    frequency: "daily",
    time_window: "22:00-02:00",
  };

  it("ends the window on the next local day", () => {
    const [c] = nextCycles(lateNight, ROME, {
      from: at("2027-07-10T12:00:00Z"),
      count: 1,
    });
    expect(c).toEqual({
      index: 0,
      local_date: "2027-07-10",
      starts_at: "2027-07-10T20:00:00.000Z",
      ends_at: "2027-07-11T00:00:00.000Z",
      dispatch_at: "2027-07-10T12:00:00.000Z", // 24 h ahead is before the order: held at the anchor
      time_zone: "Europe/Rome",
      local_window: "22:00-02:00",
      crosses_midnight: true,
    });
  });

  it("still returns yesterday's cycle while its window is open", () => {
    const anchor = at("2027-07-01T00:00:00Z");
    const cycles = nextCycles(lateNight, ROME, {
      from: at("2027-07-11T23:30:00Z"),
      count: 2,
      anchor,
    });
    expect(cycles.map((c) => [c.index, c.local_date])).toEqual([
      [10, "2027-07-11"],
      [11, "2027-07-12"],
    ]);
  });

  it("closes at the first 02:00 on the night the clocks go back", () => {
    const cycles = nextCycles(lateNight, ROME, {
      from: at("2027-10-30T12:00:00Z"),
      count: 2,
    });
    expect(times(cycles)).toEqual([
      ["2027-10-30", "2027-10-30T20:00:00.000Z", "2027-10-31T00:00:00.000Z", "2027-10-30T12:00:00.000Z"],
      ["2027-10-31", "2027-10-31T21:00:00.000Z", "2027-11-01T01:00:00.000Z", "2027-10-30T21:00:00.000Z"],
    ]);
  });
});

describe("monthly cycles", () => {
  it("caps deliver_before 31 at the last day of each month, leap February included", () => {
    const rule: RecurrenceRule = { frequency: "monthly", deliver_before: 31 };
    const cycles = nextCycles(rule, ROME, {
      from: at("2028-01-20T12:00:00Z"),
      count: 4,
    });
    expect(times(cycles)).toEqual([
      ["2028-01-01", "2027-12-31T23:00:00.000Z", "2028-01-30T23:00:00.000Z", "2028-01-20T12:00:00.000Z"],
      ["2028-02-01", "2028-01-31T23:00:00.000Z", "2028-02-28T23:00:00.000Z", "2028-01-31T23:00:00.000Z"],
      ["2028-03-01", "2028-02-29T23:00:00.000Z", "2028-03-30T22:00:00.000Z", "2028-02-29T23:00:00.000Z"],
      ["2028-04-01", "2028-03-31T22:00:00.000Z", "2028-04-29T22:00:00.000Z", "2028-03-31T22:00:00.000Z"],
    ]);
    expect(cycles.map((c) => c.index)).toEqual([0, 1, 2, 3]);
  });

  it("uses 28 February in a common year", () => {
    const [feb] = nextCycles({ frequency: "monthly", deliver_before: 30 }, ROME, { from: at("2027-02-01T12:00:00Z"), count: 1 });
    expect(feb?.ends_at).toBe("2027-02-27T23:00:00.000Z");
  });

  it("runs to the end of the month without deliver_before", () => {
    const cycles = nextCycles({ frequency: "monthly" }, ROME, {
      from: at("2028-02-10T00:00:00Z"),
      count: 2,
    });
    expect(cycles.map((c) => c.ends_at)).toEqual(["2028-02-29T23:00:00.000Z", "2028-03-31T22:00:00.000Z"]);
  });

  it("starts the next cycle when the order comes after this month's deadline", () => {
    const rule: RecurrenceRule = { frequency: "monthly", deliver_before: 15 };
    const anchor = at("2027-06-20T09:00:00Z");
    const cycles = nextCycles(rule, ROME, { from: anchor, count: 2, anchor });
    expect(times(cycles)).toEqual([
      ["2027-07-01", "2027-06-30T22:00:00.000Z", "2027-07-14T22:00:00.000Z", "2027-06-30T22:00:00.000Z"],
      ["2027-08-01", "2027-07-31T22:00:00.000Z", "2027-08-14T22:00:00.000Z", "2027-07-31T22:00:00.000Z"],
    ]);
    expect(cycles.map((c) => c.index)).toEqual([1, 2]);
    expect(cycleAt(rule, ROME, 0, anchor)).toBeNull();
  });

  it("opens at the window's start on the 1st when there is a window", () => {
    const [c] = nextCycles({ frequency: "monthly", deliver_before: 10, time_window: "18:00-21:00" }, SYDNEY, {
      from: at("2027-05-20T00:00:00Z"),
      count: 1,
    });
    expect(c).toMatchObject({
      local_date: "2027-06-01",
      starts_at: "2027-06-01T08:00:00.000Z",
      ends_at: "2027-06-09T14:00:00.000Z",
      dispatch_at: "2027-05-31T14:00:00.000Z",
      local_window: "18:00-21:00",
    });
  });
});

describe("seasons", () => {
  it("keeps Sydney's summer_only Fridays to December–February, across the new year", () => {
    const cycles = nextCycles({ frequency: "weekly", day_of_week: 5, season: "summer_only" }, SYDNEY, {
      from: at("2027-11-20T00:00:00Z"),
      count: 15,
    });
    expect(cycles.map((c) => c.local_date)).toEqual([
      "2027-12-03",
      "2027-12-10",
      "2027-12-17",
      "2027-12-24",
      "2027-12-31",
      "2028-01-07",
      "2028-01-14",
      "2028-01-21",
      "2028-01-28",
      "2028-02-04",
      "2028-02-11",
      "2028-02-18",
      "2028-02-25",
      "2028-12-01",
      "2028-12-08",
    ]);
    // Weeks keep counting through the winter: no index is reused or skipped by the gap.
    expect(cycles.map((c) => c.index)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 54, 55]);
  });

  it("puts Auckland's summer days in December–February and Sydney's winter months in June–August", () => {
    const summer = nextCycles({ frequency: "daily", season: "summer_only", time_window: "18:00-21:00" }, AUCKLAND, {
      from: at("2027-02-26T12:00:00Z"),
      count: 3,
    });
    expect(times(summer).map((t) => [t[0], t[1]])).toEqual([
      ["2027-02-27", "2027-02-27T05:00:00.000Z"],
      ["2027-02-28", "2027-02-28T05:00:00.000Z"],
      ["2027-12-01", "2027-12-01T05:00:00.000Z"],
    ]);
    const winter = nextCycles({ frequency: "monthly", season: "winter_only" }, SYDNEY, { from: at("2027-01-10T00:00:00Z"), count: 4 });
    expect(winter.map((c) => c.local_date)).toEqual(["2027-06-01", "2027-07-01", "2027-08-01", "2028-06-01"]);
  });

  it("uses June–August for summer north of the equator and on it", () => {
    const rome = nextCycles({ frequency: "monthly", season: "summer_only" }, ROME, { from: at("2027-01-10T00:00:00Z"), count: 3 });
    expect(rome.map((c) => c.local_date)).toEqual(["2027-06-01", "2027-07-01", "2027-08-01"]);
    const equator = nextCycles(
      { frequency: "monthly", season: "winter_only" },
      { lat: 0, lng: -30 },
      {
        from: at("2027-03-10T00:00:00Z"),
        count: 3,
      },
    );
    expect(equator.map((c) => [c.local_date, c.time_zone, c.starts_at])).toEqual([
      ["2027-12-01", "Etc/GMT+2", "2027-12-01T02:00:00.000Z"],
      ["2028-01-01", "Etc/GMT+2", "2028-01-01T02:00:00.000Z"],
      ["2028-02-01", "Etc/GMT+2", "2028-02-01T02:00:00.000Z"],
    ]);
  });

  it("stops searching three years ahead", () => {
    const cycles = nextCycles({ frequency: "daily", season: "summer_only" }, ROME, { from: at("2027-01-01T12:00:00Z"), count: 1000 });
    // Three summers of 92 days (2027, 2028, 2029), none from 2030.
    expect(cycles).toHaveLength(276);
    expect(cycles.at(-1)?.local_date).toBe("2029-08-31");
  });
});

describe("event nights", () => {
  const rule: RecurrenceRule = {
    frequency: "weekly",
    event_nights_only: true,
    event_dates: ["2027-06-20", "2027-06-12", "2027-06-13", "2027-06-12", "2027-06-01"],
    time_window: "20:00-23:30",
  };
  const anchor = at("2027-05-01T00:00:00Z");

  it("gives exactly the listed dates, sorted and de-duplicated, dropping past ones", () => {
    const cycles = nextCycles(rule, ROME, {
      from: at("2027-06-05T00:00:00Z"),
      count: 10,
      anchor,
    });
    expect(cycles.map((c) => [c.index, c.local_date, c.starts_at, c.ends_at, c.dispatch_at])).toEqual([
      [1, "2027-06-12", "2027-06-12T18:00:00.000Z", "2027-06-12T21:30:00.000Z", "2027-06-11T18:00:00.000Z"],
      [2, "2027-06-13", "2027-06-13T18:00:00.000Z", "2027-06-13T21:30:00.000Z", "2027-06-12T18:00:00.000Z"],
      [3, "2027-06-20", "2027-06-20T18:00:00.000Z", "2027-06-20T21:30:00.000Z", "2027-06-19T18:00:00.000Z"],
    ]);
  });

  it("keeps tonight's event while its window is open, and ends after the last", () => {
    const open = nextCycles(rule, ROME, {
      from: at("2027-06-12T21:00:00Z"),
      count: 1,
      anchor,
    });
    expect(open.map((c) => c.local_date)).toEqual(["2027-06-12"]);
    expect(
      nextCycles(rule, ROME, {
        from: at("2027-06-20T21:30:00Z"),
        count: 5,
        anchor,
      }),
    ).toEqual([]);
    expect(cycleAt(rule, ROME, 4, anchor)).toBeNull();
  });

  it("covers the whole local day without a window, and nothing without dates", () => {
    const [c] = nextCycles(
      {
        frequency: "daily",
        event_nights_only: true,
        event_dates: ["2027-07-04"],
      },
      NEW_YORK,
      {
        from: anchor,
        count: 1,
      },
    );
    expect(c).toMatchObject({
      index: 0,
      starts_at: "2027-07-04T04:00:00.000Z",
      ends_at: "2027-07-05T04:00:00.000Z",
      local_window: null,
    });
    expect(
      nextCycles({ frequency: "daily", event_nights_only: true }, NEW_YORK, {
        from: anchor,
        count: 5,
      }),
    ).toEqual([]);
  });
});

describe("cycle index", () => {
  const rules: [string, RecurrenceRule, { lat: number; lng: number }][] = [
    ["daily window past midnight", { frequency: "daily", time_window: "22:00-02:00" }, ROME],
    [
      "weekly Friday, summer",
      {
        frequency: "weekly",
        day_of_week: 5,
        season: "summer_only",
        time_window: "18:00-21:00",
      },
      SYDNEY,
    ],
    ["monthly before the 31st", { frequency: "monthly", deliver_before: 31 }, NEW_YORK],
    [
      "event nights",
      {
        frequency: "daily",
        event_nights_only: true,
        event_dates: ["2028-01-03", "2027-12-30", "2028-02-14"],
      },
      AUCKLAND,
    ],
  ];
  const anchor = at("2027-10-20T08:15:00Z");

  it.each(rules)("recomputes the same cycle from its index (%s)", (_name, rule, where) => {
    const later = nextCycles(rule, where, {
      from: at("2027-12-28T00:00:00Z"),
      count: 12,
      anchor,
    });
    expect(later.length).toBeGreaterThanOrEqual(3);
    for (const c of later) expect(cycleAt(rule, where, c.index, anchor)).toEqual(c);
    // A scheduler asking from an earlier point sees the same cycles under the same numbers.
    const earlier = nextCycles(rule, where, {
      from: anchor,
      count: 200,
      anchor,
    });
    for (const c of later) expect(earlier.find((e) => e.index === c.index)).toEqual(c);
    const indexes = later.map((c) => c.index);
    expect([...indexes].sort((a, b) => a - b)).toEqual(indexes);
    expect(new Set(indexes).size).toBe(indexes.length);
  });

  it("counts days from the anchor's local date, not its UTC date", () => {
    // 23:30Z on 20 March is already 00:30 on the 21st in Rome.
    const anchor = at("2027-03-20T23:30:00Z");
    const [first] = nextCycles({ frequency: "daily" }, ROME, {
      from: anchor,
      count: 1,
      anchor,
    });
    expect(first).toMatchObject({
      index: 0,
      local_date: "2027-03-21",
      dispatch_at: "2027-03-20T23:30:00.000Z",
    });
    expect(cycleAt({ frequency: "daily" }, ROME, 7, anchor)?.local_date).toBe("2027-03-28");
  });

  it("counts weeks from the Monday of the anchor's week", () => {
    const wednesday = at("2027-03-24T10:00:00Z");
    const rule: RecurrenceRule = { frequency: "weekly", day_of_week: 1 };
    expect(cycleAt(rule, ROME, 0, wednesday)).toBeNull(); // Monday 22 March ended before the order
    expect(cycleAt(rule, ROME, 1, wednesday)?.local_date).toBe("2027-03-29");
    expect(nextCycles(rule, ROME, { from: wednesday, count: 1 })[0]?.index).toBe(1);
  });

  it("has no cycle for a negative, fractional or out-of-season index", () => {
    const anchor = at("2027-01-05T00:00:00Z");
    expect(cycleAt({ frequency: "daily" }, ROME, -1, anchor)).toBeNull();
    expect(cycleAt({ frequency: "daily" }, ROME, 1.5, anchor)).toBeNull();
    expect(cycleAt({ frequency: "monthly", season: "summer_only" }, ROME, 1, anchor)).toBeNull();
    expect(cycleAt({ frequency: "monthly", season: "summer_only" }, ROME, 5, anchor)?.local_date).toBe("2027-06-01");
  });

  it("uses the zone stored with the order over the looked-up one", () => {
    const [c] = nextCycles(
      { frequency: "daily", time_window: "09:00-10:00" },
      { ...ROME, timeZone: "UTC" },
      {
        from: at("2027-07-01T00:00:00Z"),
        count: 1,
      },
    );
    expect(c).toMatchObject({
      time_zone: "UTC",
      starts_at: "2027-07-01T09:00:00.000Z",
    });
  });
});

describe("limits and bad input", () => {
  const from = at("2027-01-01T00:00:00Z");

  it("returns at most 366 cycles and none for a count of 0", () => {
    expect(nextCycles({ frequency: "daily" }, ROME, { from, count: 10_000 })).toHaveLength(MAX_CYCLES);
    expect(MAX_CYCLES).toBe(366);
    expect(nextCycles({ frequency: "daily" }, ROME, { from, count: 0 })).toEqual([]);
    expect(nextCycles({ frequency: "daily" }, ROME, { from, count: -3 })).toEqual([]);
  });

  it("throws RangeError for a rule, point, zone or date it cannot schedule", () => {
    expect(() =>
      nextCycles({ frequency: "weekly", day_of_week: 8 }, ROME, {
        from,
        count: 1,
      }),
    ).toThrow(RangeError);
    expect(() =>
      nextCycles({ frequency: "daily", time_window: "25:00-26:00" }, ROME, {
        from,
        count: 1,
      }),
    ).toThrow(RangeError);
    expect(() => nextCycles({ frequency: "daily" }, { lat: 95, lng: 0 }, { from, count: 1 })).toThrow(RangeError);
    expect(() => nextCycles({ frequency: "daily" }, { ...ROME, timeZone: "Europe/Atlantis" }, { from, count: 1 })).toThrow(RangeError);
    expect(() =>
      nextCycles({ frequency: "daily" }, ROME, {
        from: at("not a date"),
        count: 1,
      }),
    ).toThrow(RangeError);
    expect(() => nextCycles({ frequency: "daily" }, ROME, { from, count: Number.NaN })).toThrow(RangeError);
  });

  it("explains every problem with a rule", () => {
    expect(
      validateRule({
        frequency: "weekly",
        day_of_week: 5,
        season: "summer_only",
        time_window: "18:00-21:00",
      }),
    ).toEqual([]);
    expect(
      validateRule({
        frequency: "daily",
        day_of_week: 5,
        deliver_before: 15,
        time_window: "18:00",
        event_dates: ["2027-06-12", "2027-02-30"],
      }),
    ).toEqual([
      "day_of_week applies to weekly orders only",
      "deliver_before applies to monthly orders only",
      "time_window must be HH:MM-HH:MM between 00:00 and 23:59, with different start and end",
      "event_dates must be calendar dates YYYY-MM-DD (not 2027-02-30)",
    ]);
    expect(validateRule({ frequency: "monthly", deliver_before: 1 })).toEqual([
      "deliver_before must be a day of the month from 2 to 31 (omit it for the end of the month)",
    ]);
    expect(validateRule({ frequency: "monthly", deliver_before: 31 })).toEqual([]);
  });
});

describe("parseTimeWindow", () => {
  it("parses windows within a day and past midnight", () => {
    expect(parseTimeWindow("18:00-21:00")).toEqual({
      start: "18:00",
      end: "21:00",
      crossesMidnight: false,
    });
    expect(parseTimeWindow("22:00-02:00")).toEqual({
      start: "22:00",
      end: "02:00",
      crossesMidnight: true,
    });
    expect(parseTimeWindow("00:00-23:59")).toEqual({
      start: "00:00",
      end: "23:59",
      crossesMidnight: false,
    });
    expect(parseTimeWindow("23:59-00:00")).toEqual({
      start: "23:59",
      end: "00:00",
      crossesMidnight: true,
    });
  });

  it.each(["24:00-02:00", "18:00-24:00", "18:00-18:00", "8:00-9:00", "18:00 - 21:00", "18:00–21:00", "18:60-19:00", "", "18:00-21:00-22:00", "18:00"])(
    "rejects %j",
    (s) => {
      expect(parseTimeWindow(s)).toBeNull();
    },
  );
});

describe("parseDayOfMonth", () => {
  it("reads the spec's ordinals and plain numbers", () => {
    expect(["1st", "2nd", "3rd", "15th", "22ND", "15", " 31st "].map(parseDayOfMonth)).toEqual([1, 2, 3, 15, 22, 15, 31]);
    expect(parseDayOfMonth(15)).toBe(15);
    expect(["0", "32nd", "fifteenth", "", "1 5"].map(parseDayOfMonth)).toEqual([null, null, null, null, null]);
    expect(parseDayOfMonth(1.5)).toBeNull();
  });
});

describe("describeRule", () => {
  it("says the frequency, day and deadline", () => {
    expect(describeRule({ frequency: "daily" })).toBe("Every day");
    expect(describeRule({ frequency: "weekly" })).toBe("Every Monday");
    expect(describeRule({ frequency: "weekly", day_of_week: 7 })).toBe("Every Sunday");
    expect(describeRule({ frequency: "monthly", deliver_before: 15 })).toBe("Monthly, delivered before the 15th");
    expect(
      [2, 3, 11, 12, 13, 21, 22, 23, 31].map((n) => describeRule({ frequency: "monthly", deliver_before: n }).replace("Monthly, delivered before the ", "")),
    ).toEqual(["2nd", "3rd", "11th", "12th", "13th", "21st", "22nd", "23rd", "31st"]);
    expect(describeRule({ frequency: "monthly" })).toBe("Monthly, delivered by the end of the month");
  });

  it("names the season's months for the hemisphere, and the window", () => {
    const rule: RecurrenceRule = {
      frequency: "weekly",
      day_of_week: 5,
      season: "summer_only",
      time_window: "18:00-21:00",
    };
    expect(describeRule(rule, ROME)).toBe("Every Friday, June to August, 18:00–21:00 local time");
    expect(describeRule(rule, SYDNEY)).toBe("Every Friday, December to February, 18:00–21:00 local time");
    expect(describeRule(rule)).toBe("Every Friday, in summer, 18:00–21:00 local time");
    expect(describeRule({ frequency: "daily", season: "winter_only" }, SYDNEY)).toBe("Every day, June to August");
    expect(describeRule({ frequency: "daily", time_window: "22:00-02:00" })).toBe("Every day, 22:00–02:00 local time (ending the next day)");
  });

  it("lists event nights with the year once per year", () => {
    expect(
      describeRule({
        frequency: "daily",
        event_nights_only: true,
        event_dates: ["2027-06-20", "2027-06-12", "2027-06-13", "2027-06-12"],
      }),
    ).toBe("On 3 event nights: 12 Jun, 13 Jun, 20 Jun 2027");
    expect(
      describeRule({
        frequency: "daily",
        event_nights_only: true,
        event_dates: ["2028-01-02", "2027-12-30"],
        time_window: "20:00-23:00",
      }),
    ).toBe("On 2 event nights: 30 Dec 2027, 2 Jan 2028, 20:00–23:00 local time");
    expect(
      describeRule({
        frequency: "daily",
        event_nights_only: true,
        event_dates: ["2027-06-12"],
      }),
    ).toBe("On 1 event night: 12 Jun 2027");
    const many = ["01", "02", "03", "04", "05", "06", "07"].map((d) => `2027-08-${d}`);
    expect(
      describeRule({
        frequency: "daily",
        event_nights_only: true,
        event_dates: many,
      }),
    ).toBe("On 7 event nights: 1 Aug 2027 to 7 Aug 2027");
    expect(describeRule({ frequency: "daily", event_nights_only: true })).toBe("On event nights (no dates listed yet)");
  });

  it("refuses to describe an invalid rule", () => {
    expect(() => describeRule({ frequency: "weekly", day_of_week: 0 })).toThrow(RangeError);
  });
});

const FLORENCE = { lat: 43.7731, lng: 11.256 };
// Friday 27 November 2026, 16:48 in Florence: eight minutes after sunset (16:40).
const AFTER_SUNSET = at("2026-11-27T15:48:00Z");
const pointers = (rule: RecurrenceRule, where: Where = FLORENCE, now = AFTER_SUNSET) => scheduleProblems(rule, where, now).map((p) => p.pointer);

describe("a schedule with no cycle left (issue 22, item 1)", () => {
  const events = (event_dates: string[], extra: Partial<RecurrenceRule> = {}): RecurrenceRule => ({
    frequency: "daily",
    event_nights_only: true,
    event_dates,
    ...extra,
  });

  it("points at each event date in the past", () => {
    expect(pointers(events(["2026-11-26"]))).toEqual(["/recurring/event_dates/0"]);
    expect(pointers(events(["1969-12-31"]))).toEqual(["/recurring/event_dates/0"]);
    expect(pointers(events(["0001-01-01"]))).toEqual(["/recurring/event_dates/0"]);
    expect(pointers(events(["2026-12-24", "2026-11-26"]))).toEqual(["/recurring/event_dates/1"]);
    expect(scheduleProblems(events(["2026-11-26"]), FLORENCE, AFTER_SUNSET)[0]?.message).toMatch(/in the past.*2026-11-27 in Europe\/Rome/);
  });

  it("points at the season that leaves out every event date", () => {
    expect(pointers(events(["2026-12-24"], { season: "summer_only" }))).toEqual(["/recurring/season"]);
    // South of the equator December is summer.
    expect(pointers(events(["2026-12-24"], { season: "summer_only" }), SYDNEY)).toEqual([]);
    expect(
      nextCycles(events(["2026-12-24", "2027-07-01"], { season: "summer_only" }), FLORENCE, { from: AFTER_SUNSET, count: 5 }).map((c) => c.local_date),
    ).toEqual(["2027-07-01"]);
  });

  it("points at the weekday of a weekly order that none of its event dates falls on", () => {
    // Monday 30 November 2026 for an order on Fridays.
    expect(pointers(events(["2026-11-30"], { frequency: "weekly", day_of_week: 5 }))).toEqual(["/recurring/day_of_week"]);
    expect(scheduleProblems(events(["2026-11-30"], { frequency: "weekly", day_of_week: 5 }), FLORENCE, AFTER_SUNSET)[0]?.message).toMatch(
      /Friday.*30 Nov 2026 is not a Friday/,
    );
    expect(
      nextCycles(events(["2026-11-30", "2026-12-04"], { frequency: "weekly", day_of_week: 5 }), FLORENCE, { from: AFTER_SUNSET, count: 5 }).map(
        (c) => c.local_date,
      ),
    ).toEqual(["2026-12-04"]);
    // Without a named weekday a weekly order runs on every listed date.
    expect(pointers(events(["2026-11-30"], { frequency: "weekly" }))).toEqual([]);
  });

  it("points at today's event date once its window has closed", () => {
    expect(pointers(events(["2026-11-27"], { time_window: "14:00-16:00" }))).toEqual(["/recurring/event_dates/0"]);
    expect(pointers(events(["2026-11-27"], { time_window: "18:00-21:00" }))).toEqual([]);
    expect(pointers(events(["2026-11-27"]), { ...FLORENCE, timeOfDay: "daylight" })).toEqual(["/recurring/event_dates/0"]);
    expect(scheduleProblems(events(["2026-11-27"]), { ...FLORENCE, timeOfDay: "daylight" }, AFTER_SUNSET)[0]?.message).toMatch(/ended at 16:40/);
  });

  it("points at a time window the sun never allows", () => {
    expect(pointers({ frequency: "daily", time_window: "08:00-10:00" }, { ...FLORENCE, timeOfDay: "evening" })).toEqual(["/recurring/time_window"]);
    expect(pointers({ frequency: "daily", time_window: "08:00-10:00" }, { ...FLORENCE, timeOfDay: "daylight" })).toEqual([]);
  });
});

describe("the event-date window (issue 22, item 2)", () => {
  const events = (event_dates: string[]): RecurrenceRule => ({ frequency: "daily", event_nights_only: true, event_dates });

  it("runs from the location's local today to two years ahead", () => {
    expect(pointers(events(["2026-11-27", "2028-11-26"]), FLORENCE, at("2026-11-27T10:00:00Z"))).toEqual([]);
    expect(pointers(events(["2026-11-27", "2028-11-27"]), FLORENCE, at("2026-11-27T10:00:00Z"))).toEqual(["/recurring/event_dates/1"]);
    expect(pointers(events(["9999-12-31"]))).toEqual(["/recurring/event_dates/0"]);
    // 23:30Z on the 27th is already the 28th in Auckland: the 27th is past there.
    expect(pointers(events(["2026-11-27"]), AUCKLAND, at("2026-11-27T23:30:00Z"))).toEqual(["/recurring/event_dates/0"]);
  });

  it("never throws on the calendar's extreme dates", () => {
    const extreme = events(["0001-01-01", "9999-12-30", "9999-12-31"]);
    expect(() => nextCycles(extreme, FLORENCE, { from: AFTER_SUNSET, count: 5 })).not.toThrow();
    expect(nextCycles(extreme, FLORENCE, { from: AFTER_SUNSET, count: 5 }).map((c) => c.local_date)).toEqual(["9999-12-30"]);
    for (const index of [0, 1, 2]) expect(() => cycleAt(extreme, FLORENCE, index, AFTER_SUNSET)).not.toThrow();
    expect(cycleAt(extreme, FLORENCE, 2, AFTER_SUNSET)).toBeNull();
    // West of Greenwich the last day's window ends in year 10000 UTC: still a date, never a throw.
    for (const where of [FLORENCE, NEW_YORK, { ...AUCKLAND, timeOfDay: "evening" as const }]) {
      expect(() => nextCycles({ ...extreme, time_window: "22:00-02:00" }, where, { from: AFTER_SUNSET, count: 5 })).not.toThrow();
      expect(() => cycleAt({ ...extreme, time_window: "22:00-02:00" }, where, 1, AFTER_SUNSET)).not.toThrow();
      expect(() => scheduleProblems(extreme, where, AFTER_SUNSET)).not.toThrow();
    }
    expect(() => describeRule(extreme)).not.toThrow();
  });
});

describe("cycles narrowed to the sun (issue 22, item 3)", () => {
  const daylight = { ...FLORENCE, timeOfDay: "daylight" as const };

  it("moves a weekly Friday daylight order confirmed after sunset to next Friday", () => {
    const friday: RecurrenceRule = { frequency: "weekly", day_of_week: 5 };
    const [first] = nextCycles(friday, daylight, { from: AFTER_SUNSET, count: 1 });
    expect(first?.local_date).toBe("2026-12-04");
    expect(cycleAt(friday, daylight, 0, AFTER_SUNSET)).toBeNull();
    // Without the sun the rest of Friday still counts.
    expect(nextCycles(friday, FLORENCE, { from: AFTER_SUNSET, count: 1 })[0]?.local_date).toBe("2026-11-27");
  });

  it("moves a daily one to tomorrow, and keeps today's while the sun is up", () => {
    expect(nextCycles({ frequency: "daily" }, daylight, { from: AFTER_SUNSET, count: 1 })[0]?.local_date).toBe("2026-11-28");
    const [today] = nextCycles({ frequency: "daily" }, daylight, { from: at("2026-11-27T14:00:00Z"), count: 1 });
    expect(today?.local_date).toBe("2026-11-27");
    // Sunrise 07:24 and sunset 16:40 Rome time, in whole minutes inside the sun's span.
    expect([today?.starts_at, today?.ends_at]).toEqual(["2026-11-27T06:25:00.000Z", "2026-11-27T15:40:00.000Z"]);
  });

  it("keeps the dispatch a day ahead of the calendar day, and the time window inside the sun's", () => {
    const [c] = nextCycles({ frequency: "daily", time_window: "15:00-18:00" }, daylight, {
      from: at("2026-11-27T10:00:00Z"),
      count: 2,
      anchor: at("2026-11-20T00:00:00Z"),
    });
    expect(c).toMatchObject({
      local_date: "2026-11-27",
      starts_at: "2026-11-27T14:00:00.000Z",
      ends_at: "2026-11-27T15:40:00.000Z",
      dispatch_at: "2026-11-26T14:00:00.000Z",
      local_window: "15:00-18:00",
    });
    // A window wholly after sunset has no daylight cycle that day: in Florence none before the sun sets after 18:00, late February.
    const [evening] = nextCycles({ frequency: "daily", time_window: "18:00-21:00" }, daylight, { from: AFTER_SUNSET, count: 1 });
    expect(evening?.local_date.slice(0, 7)).toBe("2027-02");
  });

  it("leaves monthly cycles whole", () => {
    const monthly: RecurrenceRule = { frequency: "monthly" };
    expect(nextCycles(monthly, daylight, { from: AFTER_SUNSET, count: 2 })).toEqual(nextCycles(monthly, FLORENCE, { from: AFTER_SUNSET, count: 2 }));
  });
});

describe("sunWindowOn, remembered", () => {
  const where = { lat: 43.7731, lng: 11.256, timeZone: "Europe/Rome" };

  it("answers again what the astronomy answers, in whole minutes inside the sun's span", () => {
    for (const date of ["2026-11-27", "2026-06-21"]) {
      const sun = sunWindow("daylight", zonedTimeToUtc(date, "12:00", where.timeZone), where.lat, where.lng);
      const first = sunWindowOn("daylight", date, where);
      expect(first?.start.getTime()).toBe(Math.ceil((sun?.start.getTime() ?? NaN) / 60_000) * 60_000);
      expect(first?.end.getTime()).toBe(Math.floor((sun?.end.getTime() ?? NaN) / 60_000) * 60_000);
      expect(sunWindowOn("daylight", date, where)).toEqual(first);
    }
    // Another period, place or day is another answer, not the remembered one.
    expect(sunWindowOn("midday", "2026-11-27", where)).not.toEqual(sunWindowOn("daylight", "2026-11-27", where));
    expect(sunWindowOn("daylight", "2026-11-27", { ...where, lat: 60.39, lng: 5.32, timeZone: "Europe/Oslo" })).not.toEqual(
      sunWindowOn("daylight", "2026-11-27", where),
    );
  });

  it("gives each caller Dates of its own, and remembers no sun as none", () => {
    const first = sunWindowOn("daylight", "2026-11-28", where);
    first?.start.setUTCHours(0);
    expect(sunWindowOn("daylight", "2026-11-28", where)?.start.getUTCHours()).not.toBe(0);
    // Polar night in Tromsø: no daylight at all, asked twice.
    const tromso = { lat: 69.6492, lng: 18.9553, timeZone: "Europe/Oslo" };
    expect(sunWindowOn("daylight", "2026-12-21", tromso)).toBeNull();
    expect(sunWindowOn("daylight", "2026-12-21", tromso)).toBeNull();
  });
});
