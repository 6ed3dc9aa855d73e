import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenMeteoWeather, conditionOf } from "./weather-provider";

let server: Server;
let url: string;
const seen: URLSearchParams[] = [];
let mode: "ok" | "slow" | "error" | "garbage" | "gap" = "ok";

beforeAll(async () => {
  server = createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    seen.push(query);
    if (mode === "slow") return void setTimeout(() => res.end("{}"), 1000);
    if (mode === "error") return void res.writeHead(503).end();
    if (mode === "garbage") return void res.end("not json at all");
    const day = query.get("start_date") ?? "";
    const days = day === query.get("end_date") ? [day] : [day, query.get("end_date") ?? ""];
    const time = days.flatMap((d) => Array.from({ length: 24 }, (_, h) => `${d}T${String(h).padStart(2, "0")}:00`));
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        hourly: {
          time,
          temperature_2m: time.map((_, h) => (mode === "gap" && h === 14 ? null : 10 + (h % 24) / 2)),
          weather_code: time.map((_, h) => (h % 24 < 12 ? 0 : 2)),
          ...(query.get("hourly")?.includes("wind_gusts_10m") ? { wind_gusts_10m: time.map((_, h) => h) } : {}),
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/forecast`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("OpenMeteoWeather", () => {
  it("reads the hour of the capture at the place", async () => {
    mode = "ok";
    const result = await new OpenMeteoWeather(url).at({ lat: 43.77312, lng: 11.25598, instant: new Date("2026-11-20T14:35:00Z") });
    expect(result).toEqual({ weather: { condition: "partly_cloudy", temp_c: 17 }, source: expect.stringMatching(/^127\.0\.0\.1:/) });
    expect(Object.fromEntries(seen.at(-1) ?? [])).toMatchObject({
      latitude: "43.7731",
      longitude: "11.2560",
      start_date: "2026-11-20",
      end_date: "2026-11-20",
      timezone: "GMT",
    });
  });

  it.each([
    ["slow", /did not answer within 200 ms/],
    ["error", /answered 503/],
    ["garbage", /could not be reached|not understood/],
    ["gap", /no observation for that hour/],
  ] as const)("gives null with the reason when the service is %s", async (m, reason) => {
    mode = m;
    const result = await new OpenMeteoWeather(url, 200).at({ lat: 43.77, lng: 11.25, instant: new Date("2026-11-20T14:35:00Z") });
    expect(result.weather).toBeNull();
    expect("reason" in result ? result.reason : "").toMatch(reason);
  });

  it("gives the forecast hours that overlap a window, across midnight", async () => {
    mode = "ok";
    const result = await new OpenMeteoWeather(url).forecast({
      lat: 48.8584,
      lng: 2.2945,
      from: new Date("2026-12-01T22:30:00Z"),
      to: new Date("2026-12-02T01:00:00Z"),
    });
    expect(result).toEqual({
      hours: [
        { at: "2026-12-01T22:00:00.000Z", code: 2, temp_c: 21, gust_kmh: 22 },
        { at: "2026-12-01T23:00:00.000Z", code: 2, temp_c: 21.5, gust_kmh: 23 },
        { at: "2026-12-02T00:00:00.000Z", code: 0, temp_c: 10, gust_kmh: 24 },
      ],
      source: expect.stringMatching(/^127\.0\.0\.1:/),
    });
    expect(Object.fromEntries(seen.at(-1) ?? [])).toMatchObject({
      start_date: "2026-12-01",
      end_date: "2026-12-02",
      hourly: "temperature_2m,weather_code,wind_gusts_10m",
      wind_speed_unit: "kmh",
      timezone: "GMT",
    });
  });

  it("gives no forecast, with the reason, when the service fails", async () => {
    mode = "error";
    const result = await new OpenMeteoWeather(url, 200).forecast({
      lat: 1,
      lng: 2,
      from: new Date("2026-12-01T08:00:00Z"),
      to: new Date("2026-12-01T10:00:00Z"),
    });
    expect(result).toEqual({ hours: null, reason: "The weather service answered 503." });
  });

  it("names WMO weather codes as conditions", () => {
    expect([0, 1, 3, 45, 53, 63, 81, 73, 95, 42].map(conditionOf)).toEqual([
      "clear",
      "partly_cloudy",
      "overcast",
      "fog",
      "drizzle",
      "rain",
      "rain",
      "snow",
      "thunderstorm",
      "unknown",
    ]);
  });
});
