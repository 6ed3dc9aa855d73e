// A loopback stand-in for the weather service (Open-Meteo's forecast endpoint and answer shape):
// each test file says what the hourly forecast is for a query, or null for the service being down.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Hourly {
  time: string[];
  temperature_2m: number[];
  weather_code: number[];
  wind_gusts_10m?: number[];
}

export interface WeatherStandIn {
  /** The forecast URL to configure (`fulfilment.weatherUrl`). */
  url: string;
  close: () => Promise<void>;
}

/** Answers `hourlyFor(query)` as `{ hourly }`, or 503 when it gives null. */
export async function startWeatherStandIn(hourlyFor: (query: URLSearchParams) => Hourly | null): Promise<WeatherStandIn> {
  const server = createServer((req, res) => {
    const hourly = hourlyFor(new URL(req.url ?? "/", "http://x").searchParams);
    if (hourly === null) return void res.writeHead(503).end();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ hourly }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/forecast`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
