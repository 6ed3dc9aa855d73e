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

/** The API's local window ("2025-06-01 18:00 – 21:00") as "Sun 1 Jun, 18:00–21:00". */
export function formatLocalWindow(local: string): string {
  const m = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2})\s*[–-]\s*(\d{2}:\d{2})$/.exec(local.trim());
  if (!m || !m[1] || !m[2]) return local;
  return `${formatLocalStamp(m[1])}–${m[2]}`;
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
