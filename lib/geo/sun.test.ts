import { describe, expect, it } from "vitest";
import { nearestSunset, solarNoon, sunAltitudeDeg, sunriseSunset, SUNRISE_ALTITUDE_DEG, sunWindow } from "./sun";

const FLORENCE = { lat: 43.7731, lng: 11.256 };
const SYDNEY = { lat: -33.8688, lng: 151.2093 };
// The sun's declination at the solstices (the obliquity of the ecliptic, 2026): ±23.436°.
const OBLIQUITY = 23.436;

const minutesApart = (a: Date | null, iso: string) => (a ? Math.abs(a.getTime() - Date.parse(iso)) / 60_000 : Number.POSITIVE_INFINITY);

describe("sunAltitudeDeg", () => {
  it("culminates at 90° − latitude ± obliquity in Florence at the solstices", () => {
    const june = solarNoon(new Date("2026-06-21T11:00:00Z"), FLORENCE.lat, FLORENCE.lng);
    const december = solarNoon(new Date("2026-12-21T11:00:00Z"), FLORENCE.lat, FLORENCE.lng);
    expect(sunAltitudeDeg(june, FLORENCE.lat, FLORENCE.lng)).toBeCloseTo(90 - FLORENCE.lat + OBLIQUITY, 1); // ≈ 69.66°
    expect(sunAltitudeDeg(december, FLORENCE.lat, FLORENCE.lng)).toBeCloseTo(90 - FLORENCE.lat - OBLIQUITY, 1); // ≈ 22.79°
  });

  it("has the seasons the other way round in Sydney", () => {
    const december = solarNoon(new Date("2026-12-21T02:00:00Z"), SYDNEY.lat, SYDNEY.lng);
    const june = solarNoon(new Date("2026-06-21T02:00:00Z"), SYDNEY.lat, SYDNEY.lng);
    expect(sunAltitudeDeg(december, SYDNEY.lat, SYDNEY.lng)).toBeCloseTo(90 + SYDNEY.lat + OBLIQUITY, 1); // ≈ 79.57°
    expect(sunAltitudeDeg(june, SYDNEY.lat, SYDNEY.lng)).toBeCloseTo(90 + SYDNEY.lat - OBLIQUITY, 1); // ≈ 32.70°
  });

  it("is well below the horizon at local midnight", () => {
    expect(sunAltitudeDeg(new Date("2026-11-24T23:00:00Z"), FLORENCE.lat, FLORENCE.lng)).toBeLessThan(-40);
  });

  it("is at the −0.833° convention at an almanac sunrise", () => {
    const { sunrise } = sunriseSunset(new Date("2019-06-21T17:00:00Z"), 29, -81);
    expect(sunrise).not.toBeNull();
    if (sunrise) expect(sunAltitudeDeg(sunrise, 29, -81)).toBeCloseTo(SUNRISE_ALTITUDE_DEG, 1);
  });

  it("refuses coordinates off the Earth and invalid dates", () => {
    expect(() => sunAltitudeDeg(new Date("2026-01-01T00:00:00Z"), 95, 0)).toThrow(RangeError);
    expect(() => sunAltitudeDeg(new Date(Number.NaN), 0, 0)).toThrow(RangeError);
  });
});

describe("solarNoon", () => {
  it("falls near 12:00 local mean time, shifted by the equation of time", () => {
    // Florence's mean noon is 12:00 − 11.256°/15 = 11:15 UT; on 3 November the equation of time
    // is +16.4 min (sundial fast), on 11 February −14.2 min.
    expect(minutesApart(solarNoon(new Date("2026-11-03T09:00:00Z"), FLORENCE.lat, FLORENCE.lng), "2026-11-03T10:58:36Z")).toBeLessThan(1);
    expect(minutesApart(solarNoon(new Date("2026-02-11T14:00:00Z"), FLORENCE.lat, FLORENCE.lng), "2026-02-11T11:29:11Z")).toBeLessThan(1);
  });

  it("is the transit nearest the instant, before or after it", () => {
    const afterMidday = solarNoon(new Date("2026-06-21T20:00:00Z"), FLORENCE.lat, FLORENCE.lng);
    const beforeMidday = solarNoon(new Date("2026-06-22T02:00:00Z"), FLORENCE.lat, FLORENCE.lng);
    expect(afterMidday.toISOString().slice(0, 10)).toBe("2026-06-21");
    expect(beforeMidday.toISOString().slice(0, 10)).toBe("2026-06-22");
  });
});

describe("sunriseSunset against the US Naval Observatory", () => {
  // U.S. Naval Observatory, Astronomical Applications Dept., "Rise and Set for the Sun for 2019",
  // Universal Time, tables for W081°00′ N29°00′ and W150°00′ S60°00′ (as archived in
  // cosinekitty/astronomy, generate/riseset/sun_2019_W081_N29.html and sun_2019_W150_S60.html).
  // The tables round to the minute; ±2 minutes covers that and the model difference.
  it.each([
    ["2019-01-01T17:00:00Z", 29, -81, "2019-01-01T12:18:00Z", "2019-01-01T22:38:00Z"],
    ["2019-03-20T17:00:00Z", 29, -81, "2019-03-20T11:28:00Z", "2019-03-20T23:35:00Z"],
    ["2019-06-21T17:00:00Z", 29, -81, "2019-06-21T10:26:00Z", "2019-06-22T00:26:00Z"],
    ["2019-12-21T17:00:00Z", 29, -81, "2019-12-21T12:13:00Z", "2019-12-21T22:31:00Z"],
    // Southern hemisphere: long days in December, short ones in June.
    ["2019-12-22T22:00:00Z", -60, -150, "2019-12-22T12:32:00Z", "2019-12-23T07:24:00Z"],
    ["2019-06-21T22:00:00Z", -60, -150, "2019-06-21T19:06:00Z", "2019-06-22T00:58:00Z"],
  ] as const)("%s at %s, %s: rise %s, set %s", (date, lat, lng, rise, set) => {
    const day = sunriseSunset(new Date(date), lat, lng);
    expect(minutesApart(day.sunrise, rise)).toBeLessThanOrEqual(2);
    expect(minutesApart(day.sunset, set)).toBeLessThanOrEqual(2);
    expect(day.polar).toBeNull();
  });

  it("reports polar day and polar night without inventing a sunrise", () => {
    const summer = sunriseSunset(new Date("2026-06-21T12:00:00Z"), 80, 0);
    const winter = sunriseSunset(new Date("2026-12-21T12:00:00Z"), 80, 0);
    expect(summer).toMatchObject({ sunrise: null, sunset: null, polar: "day" });
    expect(winter).toMatchObject({ sunrise: null, sunset: null, polar: "night" });
  });
});

describe("nearestSunset", () => {
  it("picks the closer of the previous and the next sunset", () => {
    // USNO: sunsets at 00:25 UT on 21 June and 00:26 UT on 22 June 2019 at N29 W081.
    expect(minutesApart(nearestSunset(new Date("2019-06-21T20:00:00Z"), 29, -81), "2019-06-22T00:26:00Z")).toBeLessThanOrEqual(2);
    expect(minutesApart(nearestSunset(new Date("2019-06-21T02:00:00Z"), 29, -81), "2019-06-21T00:25:00Z")).toBeLessThanOrEqual(2);
  });

  it("is null when the sun does not set", () => {
    expect(nearestSunset(new Date("2026-06-21T12:00:00Z"), 80, 0)).toBeNull();
  });
});

describe("sunWindow", () => {
  const florenceNoon = new Date("2026-11-27T11:00:00Z");

  it("gives daylight as sunrise to sunset, midday as noon ± 2 h, evening as sunset −1 h/+2 h", () => {
    const day = sunriseSunset(florenceNoon, 43.7731, 11.256);
    expect(sunWindow("daylight", florenceNoon, 43.7731, 11.256)).toEqual({ start: day.sunrise, end: day.sunset });
    // Florence, 27 Nov 2026: sunset 16:40 Rome time (15:40Z), as the partner saw it.
    expect(sunWindow("daylight", florenceNoon, 43.7731, 11.256)?.end.toISOString().slice(0, 16)).toBe("2026-11-27T15:40");
    const midday = sunWindow("midday", florenceNoon, 43.7731, 11.256);
    expect((midday?.end.getTime() ?? 0) - (midday?.start.getTime() ?? 0)).toBe(4 * 3_600_000);
    expect(midday?.start.getTime()).toBe(day.solarNoon.getTime() - 2 * 3_600_000);
    expect(sunWindow("evening", florenceNoon, 43.7731, 11.256)).toEqual({
      start: new Date((day.sunset?.getTime() ?? 0) - 3_600_000),
      end: new Date((day.sunset?.getTime() ?? 0) + 2 * 3_600_000),
    });
  });

  it("has no daylight in polar night and no evening when the sun does not set; polar day is daylight all day", () => {
    expect(sunWindow("daylight", new Date("2026-12-21T12:00:00Z"), 80, 0)).toBeNull();
    expect(sunWindow("evening", new Date("2026-06-21T12:00:00Z"), 80, 0)).toBeNull();
    const polarDay = sunWindow("daylight", new Date("2026-06-21T12:00:00Z"), 80, 0);
    expect((polarDay?.end.getTime() ?? 0) - (polarDay?.start.getTime() ?? 0)).toBe(24 * 3_600_000);
  });
});
