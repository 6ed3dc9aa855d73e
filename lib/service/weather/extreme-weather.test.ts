import { describe, expect, it } from "vitest";
import { extremeWeather } from "./extreme-weather";

const hour = (at: string, over: Partial<{ code: number | null; temp_c: number | null; gust_kmh: number | null }> = {}) => ({
  at,
  code: 1,
  temp_c: 15,
  gust_kmh: 20,
  ...over,
});

describe("extremeWeather", () => {
  it("finds nothing in ordinary weather, rain and drizzle included", () => {
    expect(
      extremeWeather([hour("2026-12-01T08:00:00.000Z"), hour("2026-12-01T09:00:00.000Z", { code: 63 }), hour("2026-12-01T10:00:00.000Z", { code: 53 })]),
    ).toBeNull();
    expect(extremeWeather([])).toBeNull();
  });

  it("names the first extreme hour: a thunderstorm, heavy snow, violent showers", () => {
    expect(
      extremeWeather([hour("2026-12-01T08:00:00.000Z"), hour("2026-12-01T09:00:00.000Z", { code: 95 }), hour("2026-12-01T10:00:00.000Z", { code: 75 })]),
    ).toEqual({ at: "2026-12-01T09:00:00.000Z", condition: "thunderstorm" });
    expect(extremeWeather([hour("a", { code: 75 })])?.condition).toBe("heavy snowfall");
    expect(extremeWeather([hour("a", { code: 82 })])?.condition).toBe("violent rain showers");
  });

  it("counts gusts from a severe gale, and dangerous heat and cold, at their limits", () => {
    expect(extremeWeather([hour("a", { gust_kmh: 74.9 })])).toBeNull();
    expect(extremeWeather([hour("a", { gust_kmh: 75 })])?.condition).toBe("wind gusts of 75 km/h");
    expect(extremeWeather([hour("a", { temp_c: 39.9 })])).toBeNull();
    expect(extremeWeather([hour("a", { temp_c: 40.2 })])?.condition).toBe("heat of 40 °C");
    expect(extremeWeather([hour("a", { temp_c: -19.9 })])).toBeNull();
    expect(extremeWeather([hour("a", { temp_c: -23 })])?.condition).toBe("cold of -23 °C");
  });

  it("treats missing figures as unknown, not as extreme", () => {
    expect(extremeWeather([hour("a", { code: null, temp_c: null, gust_kmh: null })])).toBeNull();
  });
});
