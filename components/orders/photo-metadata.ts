// Facts recorded with a delivered photo, as the order page words them (orders.weather.*).
import type { Words } from "./translate";

export interface PhotoWeather {
  weather?: { condition: string; temp_c: number } | null;
  weather_unavailable_reason?: string;
}

/** The conditions the weather service reports (lib/service/weather/weather-provider.ts). */
const CONDITIONS = new Set(["clear", "partly_cloudy", "overcast", "fog", "drizzle", "rain", "snow", "thunderstorm", "unknown"]);

/**
 * "partly cloudy, 12 °C", or "Weather unavailable" when the weather service gave nothing. The
 * service's reason ("could not be reached (fetch failed)") is for the operator's logs and the API,
 * not for the person reviewing the photo.
 */
export function describeWeather({ weather }: PhotoWeather, { t, locale }: Words): string {
  if (!weather) return t("weather.unavailable");
  const condition = CONDITIONS.has(weather.condition) ? t(`weather.conditions.${weather.condition}`) : weather.condition.replaceAll("_", " ");
  return t("weather.reading", { condition, temp: new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(weather.temp_c) });
}
