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
