// Historical weather at a photo's place and time, for `metadata.weather` of delivered photos. The
// default speaks Open-Meteo's API (free, keyless; hourly temperature and WMO weather code), at a
// configurable URL. A provider that does not answer in time gives `null` with the reason:
// delivery never waits on it for long, and never fails because of it.
import { z } from "zod";

export interface Weather {
  condition: string;
  temp_c: number;
}

export type WeatherResult = { weather: Weather; source: string } | { weather: null; reason: string };

export interface WeatherProvider {
  at(input: { lat: number; lng: number; instant: Date }): Promise<WeatherResult>;
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

export class OpenMeteoWeather implements WeatherProvider {
  constructor(
    private readonly url: string,
    private readonly timeoutMs = 2500,
  ) {}

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
    try {
      const response = await fetch(`${this.url}?${query}`, { signal: AbortSignal.timeout(this.timeoutMs), redirect: "error" });
      if (!response.ok) return { weather: null, reason: `The weather service answered ${response.status}.` };
      const parsed = HourlySchema.safeParse(await response.json());
      if (!parsed.success) return { weather: null, reason: "The weather service's answer was not understood." };
      const hour = `${day}T${instant.toISOString().slice(11, 13)}:00`;
      const index = parsed.data.hourly.time.indexOf(hour);
      const temp = parsed.data.hourly.temperature_2m[index];
      const code = parsed.data.hourly.weather_code[index];
      if (index < 0 || temp === null || temp === undefined || code === null || code === undefined) {
        return { weather: null, reason: "The weather service has no observation for that hour yet." };
      }
      return { weather: { condition: conditionOf(code), temp_c: Math.round(temp * 10) / 10 }, source: new URL(this.url).host };
    } catch (error) {
      const name = error instanceof Error ? error.name : "Error";
      return { weather: null, reason: name === "TimeoutError" ? `The weather service did not answer within ${this.timeoutMs} ms.` : `The weather service could not be reached (${error instanceof Error ? error.message : String(error)}).` };
    }
  }
}

/** When no weather service is configured. */
export const NO_WEATHER: WeatherProvider = { at: async () => ({ weather: null, reason: "No weather service is configured." }) };
