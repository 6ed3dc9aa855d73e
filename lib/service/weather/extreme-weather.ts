// What counts as extreme weather for `pause_conditions.weather_extreme`: weather in which nobody
// should be sent out to photograph, or in which the photos would be worthless. A recurring order's
// location is left out of a cycle when any forecast hour of its window is extreme. Pure.

/** WMO weather codes (as Open-Meteo uses them) that are extreme on their own. */
export const EXTREME_WEATHER_CODES: Readonly<Record<number, string>> = {
  65: "heavy rain",
  67: "heavy freezing rain",
  75: "heavy snowfall",
  82: "violent rain showers",
  86: "heavy snow showers",
  95: "thunderstorm",
  96: "thunderstorm with hail",
  99: "thunderstorm with heavy hail",
};

/** Limits beyond which an hour is extreme whatever its weather code. */
export const EXTREME_WEATHER_LIMITS = {
  /** Wind gusts of a severe gale (Beaufort 9) and stronger. */
  gustKmh: 75,
  /** Heat at which outdoor work is a health risk. */
  hotC: 40,
  coldC: -20,
} as const;

export interface ForecastHourLike {
  at: string;
  code: number | null;
  temp_c: number | null;
  gust_kmh: number | null;
}

export interface ExtremeWeather {
  /** The first extreme hour (UTC, ISO 8601). */
  at: string;
  /** What makes it extreme, in words: "thunderstorm", "wind gusts of 82 km/h", … */
  condition: string;
}

/** The first extreme hour among `hours`, or null when none is. */
export function extremeWeather(hours: readonly ForecastHourLike[]): ExtremeWeather | null {
  for (const hour of hours) {
    const named = hour.code === null ? undefined : EXTREME_WEATHER_CODES[hour.code];
    if (named) return { at: hour.at, condition: named };
    if (hour.gust_kmh !== null && hour.gust_kmh >= EXTREME_WEATHER_LIMITS.gustKmh)
      return { at: hour.at, condition: `wind gusts of ${Math.round(hour.gust_kmh)} km/h` };
    if (hour.temp_c !== null && hour.temp_c >= EXTREME_WEATHER_LIMITS.hotC) return { at: hour.at, condition: `heat of ${Math.round(hour.temp_c)} °C` };
    if (hour.temp_c !== null && hour.temp_c <= EXTREME_WEATHER_LIMITS.coldC) return { at: hour.at, condition: `cold of ${Math.round(hour.temp_c)} °C` };
  }
  return null;
}
