// Weather at a place and time from a weather service: the observed hour of a photo's capture, for
// `metadata.weather` of delivered photos, and the forecast of a recurring order's coming window,
// for `pause_conditions.weather_extreme`. The default speaks Open-Meteo's API (free, keyless;
// hourly temperature, WMO weather code and wind gusts; its forecast endpoint answers the past days
// and the next 16), at a configurable URL. A provider that does not answer in time gives `null`
// with the reason: nothing ever waits on it for long, and nothing fails because of it.
import { z } from "zod";
import type { ServiceContext } from "@/lib/service/context";

export interface Weather {
  condition: string;
  temp_c: number;
}

export type WeatherResult = { weather: Weather; source: string } | { weather: null; reason: string };

/** One forecast hour: the hour starting at `at` (UTC). */
export interface ForecastHour {
  at: string;
  code: number | null;
  temp_c: number | null;
  gust_kmh: number | null;
}

export type ForecastResult = { hours: ForecastHour[]; source: string } | { hours: null; reason: string };

export interface WeatherProvider {
  at(input: { lat: number; lng: number; instant: Date }): Promise<WeatherResult>;
  /** The forecast hours that overlap [from, to). */
  forecast(input: { lat: number; lng: number; from: Date; to: Date }): Promise<ForecastResult>;
}

/** WMO weather interpretation codes (as Open-Meteo uses them) → the spec's condition names. */
export function conditionOf(code: number): string {
  if (code === 0) return "clear";
  if (code === 1 || code === 2) return "partly_cloudy";
  if (code === 3) return "overcast";
  if (code === 45 || code === 48) return "fog";
  if (code >= 51 && code <= 57) return "drizzle";
  if ((code >= 61 && code <= 67) || (code >= 80 && code <= 82)) return "rain";
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return "snow";
  if (code >= 95) return "thunderstorm";
  return "unknown";
}

const HourlySchema = z.object({
  hourly: z.object({
    time: z.array(z.string()),
    temperature_2m: z.array(z.number().nullable()),
    weather_code: z.array(z.number().nullable()),
  }),
});

const ForecastSchema = z.object({
  hourly: z.object({
    time: z.array(z.string()),
    temperature_2m: z.array(z.number().nullable()),
    weather_code: z.array(z.number().nullable()),
    wind_gusts_10m: z.array(z.number().nullable()),
  }),
});

const HOUR_MS = 3_600_000;

export class OpenMeteoWeather implements WeatherProvider {
  constructor(
    private readonly url: string,
    private readonly timeoutMs = 2500,
  ) {}

  /** The service's answer to `query`, parsed, or the reason there is none. */
  private async request<T>(query: URLSearchParams, schema: z.ZodType<T>): Promise<{ data: T } | { reason: string }> {
    try {
      const response = await fetch(`${this.url}?${query}`, { signal: AbortSignal.timeout(this.timeoutMs), redirect: "error" });
      if (!response.ok) return { reason: `The weather service answered ${response.status}.` };
      const parsed = schema.safeParse(await response.json());
      return parsed.success ? { data: parsed.data } : { reason: "The weather service's answer was not understood." };
    } catch (error) {
      const name = error instanceof Error ? error.name : "Error";
      return {
        reason:
          name === "TimeoutError"
            ? `The weather service did not answer within ${this.timeoutMs} ms.`
            : `The weather service could not be reached (${error instanceof Error ? error.message : String(error)}).`,
      };
    }
  }

  async at({ lat, lng, instant }: { lat: number; lng: number; instant: Date }): Promise<WeatherResult> {
    const day = instant.toISOString().slice(0, 10);
    const query = new URLSearchParams({
      latitude: lat.toFixed(4),
      longitude: lng.toFixed(4),
      start_date: day,
      end_date: day,
      hourly: "temperature_2m,weather_code",
      timezone: "GMT",
    });
    const answer = await this.request(query, HourlySchema);
    if ("reason" in answer) return { weather: null, reason: answer.reason };
    const { hourly } = answer.data;
    const hour = `${day}T${instant.toISOString().slice(11, 13)}:00`;
    const index = hourly.time.indexOf(hour);
    const temp = hourly.temperature_2m[index];
    const code = hourly.weather_code[index];
    if (index < 0 || temp === null || temp === undefined || code === null || code === undefined) {
      return { weather: null, reason: "The weather service has no observation for that hour yet." };
    }
    return { weather: { condition: conditionOf(code), temp_c: Math.round(temp * 10) / 10 }, source: new URL(this.url).host };
  }

  async forecast({ lat, lng, from, to }: { lat: number; lng: number; from: Date; to: Date }): Promise<ForecastResult> {
    const query = new URLSearchParams({
      latitude: lat.toFixed(4),
      longitude: lng.toFixed(4),
      start_date: from.toISOString().slice(0, 10),
      end_date: new Date(Math.max(from.getTime(), to.getTime() - 1)).toISOString().slice(0, 10),
      hourly: "temperature_2m,weather_code,wind_gusts_10m",
      wind_speed_unit: "kmh",
      timezone: "GMT",
    });
    const answer = await this.request(query, ForecastSchema);
    if ("reason" in answer) return { hours: null, reason: answer.reason };
    const { hourly } = answer.data;
    const hours: ForecastHour[] = [];
    hourly.time.forEach((time, i) => {
      const start = Date.parse(`${time}:00Z`);
      if (!Number.isFinite(start) || start >= to.getTime() || start + HOUR_MS <= from.getTime()) return;
      hours.push({
        at: new Date(start).toISOString(),
        code: hourly.weather_code[i] ?? null,
        temp_c: hourly.temperature_2m[i] ?? null,
        gust_kmh: hourly.wind_gusts_10m[i] ?? null,
      });
    });
    if (hours.length === 0) return { hours: null, reason: "The weather service has no forecast for that window." };
    return { hours, source: new URL(this.url).host };
  }
}

/** When no weather service is configured. */
export const NO_WEATHER: WeatherProvider = {
  at: async () => ({ weather: null, reason: "No weather service is configured." }),
  forecast: async () => ({ hours: null, reason: "No weather service is configured." }),
};

/** The service's weather provider: the configured one, or none. */
export function weatherProvider(ctx: ServiceContext): WeatherProvider {
  const url = ctx.config.fulfilment?.weatherUrl;
  return url ? new OpenMeteoWeather(url) : NO_WEATHER;
}
