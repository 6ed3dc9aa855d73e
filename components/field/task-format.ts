// How a task reads on the phone: distances, angles, the place's local times and the names of the
// verification checks. Pure, with tests beside it.
import type { TaskCheck, TaskVerification } from "./types";

/** "240 m", "1.2 km", "14 km". */
export function formatDistance(metres: number): string {
  if (metres < 1000) return `${Math.round(metres)} m`;
  if (metres < 10_000) return `${(metres / 1000).toFixed(1)} km`;
  return `${Math.round(metres / 1000)} km`;
}

/** The same distance in words, for screen readers ("240 metres"). */
export function spokenDistance(metres: number): string {
  if (metres < 1000) return `${Math.round(metres)} metres`;
  return `${(metres / 1000).toFixed(1).replace(/\.0$/, "")} kilometres`;
}

/** "parking_lot" → "Parking lot". */
export function angleLabel(angle: string): string {
  const words = angle.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/**
 * The API's local wall-clock time ("2025-06-03 14:00", already in the place's time zone) as
 * "Tue 3 Jun, 14:00". Read as written, never converted: the place's time is what the zoomer needs.
 */
export function formatLocalStamp(local: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}:\d{2})/.exec(local);
  if (!m) return local;
  const [, y, mo, d, time] = m;
  const weekday = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d))).getUTCDay();
  return `${WEEKDAYS[weekday]} ${Number(d)} ${MONTHS[Number(mo) - 1]}, ${time}`;
}

interface LocalParts {
  day: string;
  time: string;
}

function localParts(iso: string, timeZone: string): LocalParts | null {
  try {
    const parts = new Intl.DateTimeFormat("en-GB", { timeZone, weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(new Date(iso));
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
    return { day: `${part("weekday")} ${part("day")} ${part("month")}`, time: `${part("hour")}:${part("minute")}` };
  } catch {
    return null; // a time zone this browser does not know
  }
}

/**
 * A task's window in the place's time: "Tue 24 Nov, 18:00–21:00", "Tue 24 Nov, all day",
 * "Tue 24 Nov, 22:00–midnight", or "Tue 24 Nov, 22:00 – Wed 25 Nov, 02:00" across midnight.
 * Falls back to the API's own local text when the time zone is unknown here.
 */
export function formatWindow(window: { starts_at: string; ends_at: string; local: string }, timeZone: string): string {
  const start = localParts(window.starts_at, timeZone);
  const end = localParts(window.ends_at, timeZone);
  if (!start || !end) return window.local;
  const dayBefore = localParts(new Date(Date.parse(window.ends_at) - 60_000).toISOString(), timeZone);
  if (start.day === end.day) return `${start.day}, ${start.time}–${end.time}`;
  // Ends at the midnight that closes the start's day (a day is 23–25 h around DST changes).
  if (end.time === "00:00" && dayBefore?.day === start.day) return start.time === "00:00" ? `${start.day}, all day` : `${start.day}, ${start.time}–midnight`;
  return `${start.day}, ${start.time} – ${end.day}, ${end.time}`;
}

/** Where now stands against a window: before it, in it, or after it. */
export function windowPhase(window: { starts_at: string; ends_at: string }, nowMs: number): "before" | "open" | "closed" {
  if (nowMs < Date.parse(window.starts_at)) return "before";
  return nowMs < Date.parse(window.ends_at) ? "open" : "closed";
}

const TIME_OF_DAY_NAMES: Record<string, string> = { daylight: "Daylight", midday: "Midday", evening: "Evening" };

/**
 * The order's time of day as the zoomer reads it: "Daylight: 07:22–16:40 Rome time", with the day
 * when asked ("…, Sat 28 Nov"), or why there is none ("Daylight: the sun does not rise here that day").
 */
export function timeOfDayText(timeOfDay: { requirement: string; local_date: string; local: string | null }, timeZone: string, { withDay = false } = {}): string {
  const name = TIME_OF_DAY_NAMES[timeOfDay.requirement] ?? angleLabel(timeOfDay.requirement);
  if (timeOfDay.local === null) return `${name}: the sun allows no time for it here on ${formatLocalStamp(`${timeOfDay.local_date} 00:00`).replace(/, 00:00$/, "")}`;
  const day = withDay ? `, ${formatLocalStamp(`${timeOfDay.local_date} 00:00`).replace(/, 00:00$/, "")}` : "";
  return `${name}: ${timeOfDay.local} ${zoneLabel(timeZone)}${day}`;
}

/** "Europe/Rome" → "Rome time"; the zone's city is what a zoomer on the spot recognises. */
export function zoneLabel(timeZone: string): string {
  const city = timeZone.split("/").pop()?.replaceAll("_", " ");
  return city && city !== timeZone ? `${city} time` : `${timeZone} time`;
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

const outcomeOf = (check: TaskCheck): CheckOutcome => (check.status === "passed" || check.status === "failed" ? check.status : check.passed ? "passed" : "not_evaluated");

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
