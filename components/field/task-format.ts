// How a task reads on the phone: distances, angles, the place's local times and the names of the
// verification checks. Pure, with tests beside it.
import { usesImperial } from "@/lib/i18n/locales";
import { CATEGORIES, CROWD_LABELS, type Angle, type Category, type CrowdLevel } from "@/lib/orders/vocabulary";
import { isFacing, VERIFICATION_THRESHOLDS } from "@/lib/verification/place-checks";
import { angleLabel } from "@/components/ui/angle-label";
import { zoneCity } from "@/components/ui/zone-name";
import type { TaskCheck, TaskVerification } from "./types";

const FEET_PER_METRE = 3.280_84;
const METRES_PER_MILE = 1609.344;

function distanceParts(metres: number, locale: string): { value: number; unit: "meter" | "kilometer" | "foot" | "mile"; digits: number } {
  if (usesImperial(locale)) {
    // Feet up to a tenth of a mile, as road signs and maps there do; then miles.
    if (metres < METRES_PER_MILE / 10) return { value: Math.round(metres * FEET_PER_METRE), unit: "foot", digits: 0 };
    const miles = metres / METRES_PER_MILE;
    return miles < 10 ? { value: miles, unit: "mile", digits: 1 } : { value: Math.round(miles), unit: "mile", digits: 0 };
  }
  if (metres < 1000) return { value: Math.round(metres), unit: "meter", digits: 0 };
  if (metres < 10_000) return { value: metres / 1000, unit: "kilometer", digits: 1 };
  return { value: Math.round(metres / 1000), unit: "kilometer", digits: 0 };
}

/** "240 m", "1.2 km", "14 km" — in the locale's digits and units ("800 ft", "1.2 mi" for en-US). */
export function formatDistance(metres: number, locale = "en-GB"): string {
  const { value, unit, digits } = distanceParts(metres, locale);
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit,
    unitDisplay: "short",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(value);
}

/** The same distance in words, for screen readers ("240 metres"). */
export function spokenDistance(metres: number, locale = "en-GB"): string {
  const { value, unit, digits } = distanceParts(metres, locale);
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long", maximumFractionDigits: digits }).format(value);
}

/** "HH:MM" on the locale's clock (the order's hours are the place's local times already). */
function localClock(hhmm: string, locale: string | undefined): string {
  const [h, m] = hhmm.split(":").map(Number);
  if (h === undefined || m === undefined || !Number.isFinite(h) || !Number.isFinite(m)) return hhmm;
  return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone: "UTC" }).format(Date.UTC(2000, 0, 1, h, m));
}

/** "18:00–21:00 local time"; an end before the start runs past midnight ("22:00–02:00 local time, past midnight"). */
export function hoursText(timeWindow: string, { locale = "en-GB", words = ENGLISH_TIME_WORDS }: { locale?: string; words?: TimeWords } = {}): string {
  const [start = "", end = ""] = timeWindow.split("-");
  return words.hours(localClock(start, locale), localClock(end, locale), end < start);
}

/** What the order asks of the scene beyond place and time: "At least moderate — clearly in use", "“Acme” must be readable". */
export function sceneTexts(
  requirements: { minimum_crowd: CrowdLevel | null; brand: string | null },
  words: TimeWords = ENGLISH_TIME_WORDS,
): { crowd: string | null; brand: string | null } {
  return {
    crowd: requirements.minimum_crowd ? words.crowd(requirements.minimum_crowd) : null,
    // The brand's name keeps its own direction inside a sentence of the other (first-strong isolate).
    brand: requirements.brand ? words.brand(requirements.brand) : null,
  };
}

/**
 * Where the photo must be taken, as the server's location and direction checks will judge it:
 * "Within 60 m of Duomo, facing it (within 35°)".
 */
export function whereText(task: { angle: Angle; category: string; location: { name: string } }): string {
  const { radiusM, toleranceDeg } = whereFigures(task);
  const within = `Within ${radiusM} m of ${task.location.name}`;
  return toleranceDeg !== null ? `${within}, facing it (within ${toleranceDeg}°)` : within;
}

/** The radius and, for an angle that faces the target, the direction's tolerance the server checks. */
export function whereFigures(task: { angle: Angle; category: string }): { radiusM: number; toleranceDeg: number | null } {
  const category: Category = (CATEGORIES as readonly string[]).includes(task.category) ? (task.category as Category) : "cultural_exterior";
  const { locationRadiusM, angleToleranceDeg } = VERIFICATION_THRESHOLDS[category];
  return { radiusM: locationRadiusM, toleranceDeg: isFacing(task.angle) ? angleToleranceDeg : null };
}

/**
 * The field page's one way of writing a time: the zoomer's locale (its hour cycle, its order of day
 * and month; `locale` undefined is the browser's) in the place's time zone, which is where the
 * zoomer stands. Every time on the page — windows, deadlines, a reservation's end — goes through
 * here, so one page never mixes "16:23" and "04:23 PM".
 */
export interface TimeStyle {
  timeZone: string;
  locale?: string;
}

interface LocalParts {
  day: string;
  time: string;
  /** 00:00 on the place's clock, whatever the locale writes for it. */
  midnight: boolean;
}

function localParts(iso: string, { timeZone, locale }: TimeStyle): LocalParts | null {
  try {
    const date = new Date(iso);
    const day = new Intl.DateTimeFormat(locale, { timeZone, weekday: "short", day: "numeric", month: "short" }).format(date);
    const time = new Intl.DateTimeFormat(locale, { timeZone, hour: "2-digit", minute: "2-digit" }).format(date);
    const clock = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(date);
    return { day, time, midnight: clock === "00:00" };
  } catch {
    return null; // a time zone (or locale) this browser does not know
  }
}

/** "16:23" (en-GB) or "04:23 PM" (en-US) in the place's zone; null when the zone is unknown here. */
export function formatClock(iso: string, style: TimeStyle): string | null {
  return localParts(iso, style)?.time ?? null;
}

/** "Tue 3 Jun, 14:00" (en-GB) or "Tue, Jun 3, 02:00 PM" (en-US) in the place's zone; null when the zone is unknown here. */
export function formatStamp(iso: string, { timeZone, locale }: TimeStyle): string | null {
  try {
    // One formatter for day and time: the locale joins them its own way ("…، 09:38 م" in Arabic).
    return new Intl.DateTimeFormat(locale, { timeZone, weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }).format(
      new Date(iso),
    );
  } catch {
    return null; // a time zone (or locale) this browser does not know
  }
}

/**
 * A task's window in the place's time: "Tue 24 Nov, 18:00–21:00", "Tue 24 Nov, all day",
 * "Tue 24 Nov, 22:00–midnight", or "Tue 24 Nov, 22:00 – Wed 25 Nov, 02:00" across midnight
 * (en-GB; other locales in their own words and punctuation: the range is Intl's, the all-day and
 * until-midnight sentences the catalogue's). Falls back to the API's own local text when the time
 * zone is unknown here.
 */
export function formatWindow(window: { starts_at: string; ends_at: string; local: string }, style: TimeStyle, words: TimeWords = ENGLISH_TIME_WORDS): string {
  const start = localParts(window.starts_at, style);
  const end = localParts(window.ends_at, style);
  if (!start || !end) return window.local;
  const dayBefore = localParts(new Date(Date.parse(window.ends_at) - 60_000).toISOString(), style);
  // Ends at the midnight that closes the start's day (a day is 23–25 h around DST changes).
  if (start.day !== end.day && end.midnight && dayBefore?.day === start.day)
    return start.midnight ? words.allDay(start.day) : words.untilMidnight(start.day, start.time);
  return rangeText(window, style) ?? window.local;
}

/**
 * Day and times of a window as the locale writes a range (Intl.DateTimeFormat#formatRange): its own
 * separators and order ("الثلاثاء، 24 نوفمبر، 6:00–9:00 م", "Di., 24. Nov., 18:00–21:00 Uhr"), the
 * day said once when both ends share it; null when the zone or locale is unknown here.
 */
function rangeText(window: { starts_at: string; ends_at: string }, { timeZone, locale }: TimeStyle): string | null {
  try {
    const format = new Intl.DateTimeFormat(locale, { timeZone, weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
    return format.formatRange(new Date(window.starts_at), new Date(window.ends_at));
  } catch {
    return null;
  }
}

/** Where now stands against a window: before it, in it, or after it. */
export function windowPhase(window: { starts_at: string; ends_at: string }, nowMs: number): "before" | "open" | "closed" {
  if (nowMs < Date.parse(window.starts_at)) return "before";
  return nowMs < Date.parse(window.ends_at) ? "open" : "closed";
}

/** The words the time helpers put around the Intl-formatted parts: English here, the catalogue's on the page (use-time-words.ts). */
export interface TimeWords {
  zone: (city: string) => string;
  allDay: (day: string) => string;
  untilMidnight: (day: string, start: string) => string;
  timeOfDayName: (requirement: string) => string;
  sunNone: (name: string, day: string) => string;
  timeOfDay: (name: string, span: string, zone: string, day: string | null) => string;
  /** The order's local hours, "18:00–21:00 local time" (", past midnight" when the end is before the start). */
  hours: (start: string, end: string, pastMidnight: boolean) => string;
  /** The least crowd ordered: "At least moderate — clearly in use". */
  crowd: (level: CrowdLevel) => string;
  /** "“Acme” must be readable in the photo". */
  brand: (brand: string) => string;
  /** The zone's name in the reader's language, when it names zones rather than cities; null: "{city} time". */
  zoneName?: (timeZone: string) => string | null;
}

const TIME_OF_DAY_NAMES: Record<string, string> = { daylight: "Daylight", midday: "Midday", evening: "Evening" };

export const ENGLISH_TIME_WORDS: TimeWords = {
  zone: (city) => `${city} time`,
  allDay: (day) => `${day}, all day`,
  untilMidnight: (day, start) => `${day}, ${start}–midnight`,
  timeOfDayName: (requirement) => TIME_OF_DAY_NAMES[requirement] ?? angleLabel(requirement),
  sunNone: (name, day) => `${name}: the sun allows no time for it here on ${day}`,
  timeOfDay: (name, span, zone, day) => `${name}: ${span} ${zone}${day ? `, ${day}` : ""}`,
  hours: (start, end, pastMidnight) => `${start}–${end} local time${pastMidnight ? ", past midnight" : ""}`,
  crowd: (level) => `At least ${CROWD_LABELS[level].charAt(0).toLowerCase()}${CROWD_LABELS[level].slice(1)}`,
  brand: (brand) => `“${brand}” must be readable in the photo`,
};

/** A local date ("2026-11-28") as the zoomer's locale writes a day: "Sat 28 Nov" (en-GB). */
function localDay(localDate: string, locale: string | undefined): string {
  return localParts(`${localDate}T12:00:00Z`, { timeZone: "UTC", locale })?.day ?? localDate;
}

/**
 * The order's time of day as the zoomer reads it: "Daylight: 07:22–16:40 Rome time", with the day
 * when asked ("…, Sat 28 Nov"), or why there is none ("Daylight: the sun does not rise here that day").
 * Times and day in the zoomer's locale like every other time on the page (TimeStyle), from the
 * instants when the API gives them, else its local text.
 */
export function timeOfDayText(
  timeOfDay: { requirement: string; local_date: string; local: string | null; starts_at?: string | null; ends_at?: string | null },
  timeZone: string,
  { withDay = false, locale, words = ENGLISH_TIME_WORDS }: { withDay?: boolean; locale?: string; words?: TimeWords } = {},
): string {
  const name = words.timeOfDayName(timeOfDay.requirement);
  const day = localDay(timeOfDay.local_date, locale);
  if (timeOfDay.local === null) return words.sunNone(name, day);
  const style = { timeZone, locale };
  const start = timeOfDay.starts_at ? formatClock(timeOfDay.starts_at, style) : null;
  const end = timeOfDay.ends_at ? formatClock(timeOfDay.ends_at, style) : null;
  const span = start && end ? `${start}–${end}` : timeOfDay.local;
  return words.timeOfDay(name, span, zoneLabel(timeZone, words), withDay ? day : null);
}

/**
 * "Europe/Rome" → "Rome time" in English, where the zone's city is what a zoomer on the spot
 * recognises; the zone's own name in a language that has one ("hora de Europa central"), so a
 * translated sentence carries no English city.
 */
export function zoneLabel(timeZone: string, words: TimeWords = ENGLISH_TIME_WORDS): string {
  return words.zoneName?.(timeZone) ?? words.zone(zoneCity(timeZone));
}

/** The checks in the order a zoomer reads them, with their names in words. */
export const CHECK_LABELS: Record<string, string> = {
  location_match: "Place",
  angle_match: "Direction",
  time_of_day: "Time of day",
  quality: "Photo quality",
  obstruction: "Clear view",
  minimum_crowd: "Crowd",
  brand_match: "Brand",
};

export type CheckOutcome = "passed" | "failed" | "not_evaluated";

export interface NamedCheck {
  name: string;
  label: string;
  outcome: CheckOutcome;
  check: TaskCheck;
}

const outcomeOf = (check: TaskCheck): CheckOutcome =>
  check.status === "passed" || check.status === "failed" ? check.status : check.passed ? "passed" : "not_evaluated";

/** Every check of a verification, known ones first in their usual order, any new ones after. */
export function namedChecks(verification: TaskVerification): NamedCheck[] {
  const known = Object.keys(CHECK_LABELS);
  const names = [...known.filter((n) => n in verification.ai_checks), ...Object.keys(verification.ai_checks).filter((n) => !known.includes(n))];
  return names.flatMap((name) => {
    const check = verification.ai_checks[name];
    return check ? [{ name, label: CHECK_LABELS[name] ?? angleLabel(name), outcome: outcomeOf(check), check }] : [];
  });
}

/** Retakes a task may have after the first photo (lib/service/orders/verify-assignment.ts MAX_RETAKES). */
export const MAX_RETAKES = 3;

/**
 * An outbox photo's title: its target and its angle, the angle named once. (Task photos kept
 * before this stored "place · angle" as their title; those are not named twice either.)
 */
export function outboxTitle(target: string, angle: string | null): string {
  if (!angle) return target;
  return target.endsWith(` · ${angle}`) ? target : `${target} · ${angle}`;
}
