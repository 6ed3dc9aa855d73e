import { describe, expect, it } from "vitest";
import { magneticDeclinationDeg, trueHeading } from "./declination";

/** A WMM decimal year as the model reads it: Jan 1 UTC plus the fraction of a 365-day year. */
const decimalYear = (y: number) => new Date(Date.UTC(Math.floor(y), 0, 1) + (y - Math.floor(y)) * 365 * 86_400_000);

describe("magneticDeclinationDeg", () => {
  // NOAA NCEI's WMM2025 test values (WMM2025_TEST_VALUES: decimal year, altitude km, lat, lon →
  // declination to 0.01°), as bundled in the geomagnetism package's test/values.csv.
  const NOAA_WMM2025 = [
    [2026.0, 74, -57, 3, -22.51],
    [2026.0, 46, -24, -122, 14.01],
    [2026.0, 69, 23, 63, 1.17],
    [2026.0, 33, -3, -147, 9.71],
    [2026.0, 62, -14, 99, -1.43],
    [2026.5, 14, 0, 80, -3.1],
    [2026.5, 44, -46, -42, -11.36],
    [2026.5, 43, 17, 52, 1.19],
    [2026.5, 12, 33, -145, 11.96],
    [2026.5, 86, -11, 167, 10.24],
  ] as const;

  it.each(NOAA_WMM2025)("matches NOAA's WMM2025 test value for %s at %s km, %s, %s → %s°", (year, altKm, lat, lng, expected) => {
    expect(Math.abs(magneticDeclinationDeg(lat, lng, decimalYear(year), altKm * 1000) - expected)).toBeLessThanOrEqual(0.01);
  });

  // Rounded city values for 2026 (NOAA's magnetic field calculator, WMM2025): Florence about 4° E,
  // New York about 13° W, Sydney about 13° E. A degree of slack covers the rounding and where in
  // the city the published figure was taken.
  it.each([
    ["Florence", 43.7731, 11.256, 4],
    ["New York", 40.7128, -74.006, -13],
    ["Sydney", -33.8688, 151.2093, 13],
  ] as const)("gives %s its published 2026 declination", (_name, lat, lng, expected) => {
    expect(Math.abs(magneticDeclinationDeg(lat, lng, new Date("2026-11-24T12:00:00Z")) - expected)).toBeLessThan(1);
  });

  it("refuses a date no shipped model covers rather than extrapolating", () => {
    expect(() => magneticDeclinationDeg(43.77, 11.26, new Date("2031-01-01T00:00:00Z"))).toThrow(RangeError);
    expect(() => magneticDeclinationDeg(43.77, 11.26, new Date("2010-01-01T00:00:00Z"))).toThrow(RangeError);
  });

  it("refuses coordinates that are not on Earth and an invalid date", () => {
    expect(() => magneticDeclinationDeg(91, 0, new Date("2026-01-01T00:00:00Z"))).toThrow(RangeError);
    expect(() => magneticDeclinationDeg(0, Number.NaN, new Date("2026-01-01T00:00:00Z"))).toThrow(RangeError);
    expect(() => magneticDeclinationDeg(0, 0, new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe("trueHeading", () => {
  const when = new Date("2026-11-24T12:00:00Z");

  it("adds the declination to a magnetic reading", () => {
    const florence = magneticDeclinationDeg(43.7731, 11.256, when);
    expect(trueHeading(90, "magnetic", 43.7731, 11.256, when)).toBeCloseTo(90 + florence, 9);
  });

  it("wraps across north when a west declination takes a reading below 0°", () => {
    // New York, declination about −12.5°: a compass reading of 5° is about 352.5° true.
    const heading = trueHeading(5, "magnetic", 40.7128, -74.006, when);
    expect(heading).toBeGreaterThan(351);
    expect(heading).toBeLessThan(354);
  });

  it("leaves a true reading, or one without a reference (EXIF default 'T'), as it is", () => {
    expect(trueHeading(123.4, "true", 40.7128, -74.006, when)).toBe(123.4);
    expect(trueHeading(123.4, null, 40.7128, -74.006, when)).toBe(123.4);
    expect(trueHeading(370, "true", 0, 0, when)).toBe(10);
  });

  it("never needs a model for a true reading, whatever the date", () => {
    expect(trueHeading(45, "true", 0, 0, new Date("2040-01-01T00:00:00Z"))).toBe(45);
    expect(() => trueHeading(45, "magnetic", 0, 0, new Date("2040-01-01T00:00:00Z"))).toThrow(RangeError);
  });
});
