/**
 * Where the sun is at a place and instant, and when it rises, culminates and sets — for checking
 * that an ordered photo was taken in daylight, around midday or in the evening.
 *
 * The astronomy comes from `astronomy-engine` (VSOP87 and NOVAS-checked; agrees with the US Naval
 * Observatory's tables to about a minute), which runs offline and handles ΔT, nutation and
 * aberration that the short sunrise formulas leave out.
 *
 * Conventions are the almanacs': sunrise and sunset are when the sun's upper limb touches a
 * sea-level horizon with standard refraction (34′), i.e. when the centre's geometric altitude is
 * about −0.833°; `sunAltitudeDeg` is that geometric (airless) altitude of the centre.
 */
import { Body, Equator, Horizon, Observer, SearchHourAngle, SearchRiseSet } from "astronomy-engine";

/** The sun's centre is this far below the horizon at sunrise and sunset: 34′ refraction + 16′ radius. */
export const SUNRISE_ALTITUDE_DEG = -0.833;

function observer(lat: number, lng: number): Observer {
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    throw new RangeError(`Not a point on Earth: lat ${lat}, lng ${lng}`);
  }
  return new Observer(lat, lng, 0);
}

function checkDate(date: Date): void {
  if (!Number.isFinite(date.getTime())) throw new RangeError("Invalid Date");
}

/** Geometric altitude of the sun's centre above the horizon, degrees (negative below it). */
export function sunAltitudeDeg(instant: Date, lat: number, lng: number): number {
  checkDate(instant);
  const where = observer(lat, lng);
  // Of-date coordinates with aberration: the sun's apparent place, seen from this observer.
  const sky = Equator(Body.Sun, instant, where, true, true);
  // No refraction argument: the airless altitude, the one the −0.833° convention is stated in.
  return Horizon(instant, where, sky.ra, sky.dec).altitude;
}

/** Solar noon — the sun crossing the local meridian, highest in the sky — nearest to `date`. */
export function solarNoon(date: Date, lat: number, lng: number): Date {
  checkDate(date);
  const where = observer(lat, lng);
  const next = SearchHourAngle(Body.Sun, where, 0, date, +1).time.date;
  const previous = SearchHourAngle(Body.Sun, where, 0, date, -1).time.date;
  return next.getTime() - date.getTime() <= date.getTime() - previous.getTime() ? next : previous;
}

export interface SunDay {
  /** The sunrise before this solar noon (within 12 h), or null when the sun does not rise. */
  sunrise: Date | null;
  solarNoon: Date;
  /** The sunset after this solar noon (within 12 h), or null when the sun does not set. */
  sunset: Date | null;
  /** Polar day or night: no sunrise and no sunset, and which of the two it is. */
  polar: "day" | "night" | null;
}

/**
 * Sunrise, solar noon and sunset of the solar day whose noon is nearest `date`. Pass local noon
 * (or any instant of the local morning or afternoon) to get that local day's times.
 */
export function sunriseSunset(date: Date, lat: number, lng: number): SunDay {
  const noon = solarNoon(date, lat, lng);
  const where = observer(lat, lng);
  const sunrise = SearchRiseSet(Body.Sun, where, +1, noon, -0.5)?.date ?? null;
  const sunset = SearchRiseSet(Body.Sun, where, -1, noon, +0.5)?.date ?? null;
  let polar: SunDay["polar"] = null;
  if (!sunrise && !sunset) polar = sunAltitudeDeg(noon, lat, lng) > SUNRISE_ALTITUDE_DEG ? "day" : "night";
  return { sunrise, solarNoon: noon, sunset, polar };
}

/** The sunset closest in time to `instant` (within a day either side), or null in polar day or night. */
export function nearestSunset(instant: Date, lat: number, lng: number): Date | null {
  checkDate(instant);
  const where = observer(lat, lng);
  const next = SearchRiseSet(Body.Sun, where, -1, instant, +1)?.date ?? null;
  const previous = SearchRiseSet(Body.Sun, where, -1, instant, -1)?.date ?? null;
  if (!next || !previous) return next ?? previous;
  return next.getTime() - instant.getTime() <= instant.getTime() - previous.getTime() ? next : previous;
}

/** The order's time-of-day words (RequirementsSchema.time_of_day): when the sun is right for a photo. */
export type SunPeriod = "daylight" | "midday" | "evening";

/** The bounds of `midday` and `evening`, as the API documents them; verification and scheduling both read them. */
export const TIME_OF_DAY_RULES = {
  /** `midday`: within this many hours of solar noon. */
  middayHours: 2,
  /** `evening`: from this many hours before sunset… */
  eveningBeforeSunsetHours: 1,
  /** …to this many hours after it. */
  eveningAfterSunsetHours: 2,
} as const;

const HOUR_MS = 3_600_000;

/**
 * When on the solar day nearest `date` (pass the place's local noon) the sun is right for
 * `period`: daylight from sunrise to sunset (the whole day in polar day), midday within 2 h of
 * solar noon, evening from 1 h before sunset to 2 h after. Null when there is no such time that
 * day (daylight in polar night; evening when the sun does not set).
 */
export function sunWindow(period: SunPeriod, date: Date, lat: number, lng: number): { start: Date; end: Date } | null {
  const day = sunriseSunset(date, lat, lng);
  const noon = day.solarNoon.getTime();
  switch (period) {
    case "daylight":
      if (day.polar === "night") return null;
      // Near the polar circles the sun may rise without setting that day, or the reverse.
      return { start: day.sunrise ?? new Date(noon - 12 * HOUR_MS), end: day.sunset ?? new Date(noon + 12 * HOUR_MS) };
    case "midday":
      return { start: new Date(noon - TIME_OF_DAY_RULES.middayHours * HOUR_MS), end: new Date(noon + TIME_OF_DAY_RULES.middayHours * HOUR_MS) };
    case "evening": {
      if (!day.sunset) return null;
      const sunset = day.sunset.getTime();
      return {
        start: new Date(sunset - TIME_OF_DAY_RULES.eveningBeforeSunsetHours * HOUR_MS),
        end: new Date(sunset + TIME_OF_DAY_RULES.eveningAfterSunsetHours * HOUR_MS),
      };
    }
  }
}
