// Facts recorded with a delivered photo, as the order page words them.

export interface PhotoWeather {
  weather?: { condition: string; temp_c: number } | null;
  weather_unavailable_reason?: string;
}

/**
 * "partly cloudy, 12 °C", or "Weather unavailable" when the weather service gave nothing. The
 * service's reason ("could not be reached (fetch failed)") is for the operator's logs and the API,
 * not for the person reviewing the photo.
 */
export function describeWeather({ weather }: PhotoWeather): string {
  return weather ? `${weather.condition.replaceAll("_", " ")}, ${weather.temp_c} °C` : "Weather unavailable";
}
