/**
 * The automated verification of an ordered photo: pure functions from the photo's facts (GPS,
 * compass direction, capture time, QA results) and the order's requirements to recorded
 * verdicts, each with a score, its measured value, a sentence for the partner and — when it
 * fails — what the zoomer should do differently on the retake.
 *
 * No database, no clock and no I/O: an image analyser (the local OCR one, or ./http-analyser) is
 * passed in, and its absence or failure is recorded as "not evaluated", never as a pass.
 */
import { angularDifferenceDeg, bearingDeg, compassPointName, distanceM, normaliseDeg } from "@/lib/geo/bearing";
import { trueHeading, type DirectionRef } from "@/lib/geo/declination";
import { nearestSunset, solarNoon, sunAltitudeDeg, sunriseSunset, SUNRISE_ALTITUDE_DEG, TIME_OF_DAY_RULES } from "@/lib/geo/sun";
import { localParts, zonedTimeToUtc } from "@/lib/geo/time-zone";
import type { ExifSummary } from "@/lib/photos/read-exif";
import type { QaCheck } from "@/lib/schemas/qa";
import type { Angle, Category, CROWD_LEVELS, TimeOfDay } from "@/lib/orders/vocabulary";
import { parseTimeWindow } from "@/lib/service/orders/cycles/cycle-calendar";
import { reasonsFrom } from "@/lib/service/qa/checks";

export const VERIFICATION_CHECKS = ["location_match", "angle_match", "time_of_day", "quality", "obstruction", "minimum_crowd", "brand_match"] as const;
export type VerificationCheckName = (typeof VERIFICATION_CHECKS)[number];

export const ANALYSIS_CHECKS = ["obstruction", "minimum_crowd", "brand_match"] as const;
export type AnalysisCheckName = (typeof ANALYSIS_CHECKS)[number];
export type CrowdLevel = (typeof CROWD_LEVELS)[number];

export interface CheckResult {
  check: VerificationCheckName;
  status: "passed" | "failed" | "not_evaluated";
  /** false when not_evaluated: never passed without evidence. */
  passed: boolean;
  /** 0–1; 0 when not_evaluated. */
  score: number;
  /** The measured value: metres, degrees off, sun altitude, local time, failed QA checks… */
  value: number | string | null;
  threshold: number | string | null;
  /** A sentence a partner can read. */
  message: string;
  /** For a failed check, what the zoomer should do differently; null otherwise. */
  instruction: string | null;
  /** Supporting figures (heading, bearing, declination, sunset…) and an analyser's own fields. */
  extra?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Thresholds

export interface VerificationThresholds {
  /** How far from the ordered point a photo may be taken, metres, before the GPS accuracy credit. */
  locationRadiusM: number;
  /** The largest reported GPS accuracy added to the radius, metres. */
  maxAccuracyCreditM: number;
  /** How far the camera may point away from the target, degrees. */
  angleToleranceDeg: number;
  /** Below this camera–target distance, metres, the bearing is noise and the angle is not judged. */
  minBearingDistanceM: number;
}

const BASE_THRESHOLDS: VerificationThresholds = {
  // A facade photographed "square on, from across the street" or across a piazza stands 20–50 m
  // off the ordered point; 60 m leaves room for that and for a point placed on the building's
  // centre rather than its front.
  locationRadiusM: 60,
  // Phones outdoors report 3–16 m; an urban-canyon fix can claim 30–50 m. Beyond 50 m the fix is
  // too vague to credit: crediting it would accept photos from the next street.
  maxAccuracyCreditM: 50,
  // Half the horizontal field of view of a phone's main camera (26 mm-equivalent lens:
  // 2·atan(18/26) ≈ 69°): within 35° the target is still in the frame.
  angleToleranceDeg: 35,
  // Phone GPS is good to about 5 m at best; closer than that, the direction from the reported
  // position to the point could be anything.
  minBearingDistanceM: 5,
};

/** Per-category thresholds; a verification may still override any of them. */
export const VERIFICATION_THRESHOLDS: Record<Category, VerificationThresholds> = {
  cultural_exterior: BASE_THRESHOLDS,
  // Interiors and terraces: the point is the restaurant itself; the indoor GPS error is covered by
  // the accuracy credit, not by a wider radius.
  restaurant_ambiance: BASE_THRESHOLDS,
  // One point stands for a stretch of beach: flags, showers and loungers are spread along a few
  // hundred metres of shore.
  beach_facility_status: { ...BASE_THRESHOLDS, locationRadiusM: 150 },
  // Shops are small, but often inside malls where GPS is poor: the accuracy credit handles that.
  retail_compliance: BASE_THRESHOLDS,
  // Stadiums and arenas: the gates and their queues can be 100 m from the venue's centre point.
  event_venue_status: { ...BASE_THRESHOLDS, locationRadiusM: 100 },
};

/** How long an analyser may take before its checks are recorded as not evaluated. */
export const ANALYSIS_TIMEOUT_MS = 15_000;

/**
 * Angles shot facing one point — the target — so the camera's direction can be checked against
 * the bearing to it. Wide or inward views (interior, overview, outdoor_seating, facilities,
 * parking_lot) have no single direction and are not judged.
 */
export const FACING_ANGLES = ["front", "entrance", "storefront", "promotional_display", "water_quality_flag", "entrance_queue"] as const satisfies readonly Angle[];
type FacingAngle = (typeof FACING_ANGLES)[number];

const FACING_SUBJECT: Record<FacingAngle, (place: string) => string> = {
  front: (place) => `the front of ${place}`,
  entrance: (place) => `the entrance of ${place}`,
  storefront: (place) => `the shop window of ${place}`,
  promotional_display: (place) => `the promotional display at ${place}`,
  water_quality_flag: (place) => `the water-quality flag at ${place}`,
  entrance_queue: (place) => `the entrance queue at ${place}`,
};

const isFacing = (angle: Angle): angle is FacingAngle => (FACING_ANGLES as readonly string[]).includes(angle);

// ---------------------------------------------------------------------------------------------
// Helpers

const round1 = (v: number) => Math.round(v * 10) / 10;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** A linear score: 1 at 0, 0.5 at the threshold, 0 at twice the threshold. */
function linearScore(measured: number, threshold: number): number {
  if (threshold <= 0) return measured <= 0 ? 1 : 0;
  return round3(clamp01(1 - measured / (2 * threshold)));
}

function notEvaluated(check: VerificationCheckName, message: string, threshold: CheckResult["threshold"] = null, extra?: Record<string, unknown>): CheckResult {
  return { check, status: "not_evaluated", passed: false, score: 0, value: null, threshold, message, instruction: null, ...(extra ? { extra } : {}) };
}

function judged(
  check: VerificationCheckName,
  passed: boolean,
  fields: { score: number; value: CheckResult["value"]; threshold: CheckResult["threshold"]; message: string; instruction: string | null; extra?: Record<string, unknown> },
): CheckResult {
  const { extra, ...rest } = fields;
  return { check, status: passed ? "passed" : "failed", passed, ...rest, instruction: passed ? null : fields.instruction || null, ...(extra ? { extra } : {}) };
}

const hhmm = (instant: Date, timeZone: string) => {
  const p = localParts(instant, timeZone);
  return `${String(p.hour).padStart(2, "0")}:${String(p.minute).padStart(2, "0")}`;
};

const fmt = (v: number) => String(round1(v));

// ---------------------------------------------------------------------------------------------
// location_match

export interface LocationCheckInput {
  /** The photo's GPS fix; null when the photo has none. */
  photo: { lat: number; lng: number; accuracyM: number | null } | null;
  target: { lat: number; lng: number; name: string };
  radiusM: number;
  /** Defaults to VERIFICATION_THRESHOLDS' 50 m. */
  maxAccuracyCreditM?: number;
}

/**
 * Distance from the ordered point against the radius plus the photo's reported GPS accuracy
 * (capped): a fix that says "±20 m" 70 m away may well have been taken 50 m away. Passes at
 * exactly the allowance; the score is 1 at the point, 0.5 at the allowance, 0 at twice it.
 */
export function checkLocation(input: LocationCheckInput): CheckResult {
  const { photo, target, radiusM } = input;
  if (!photo) {
    return judged("location_match", false, {
      score: 0,
      value: null,
      threshold: radiusM,
      message: `The photo has no GPS position, so it cannot be shown to have been taken at ${target.name}.`,
      instruction: `Turn on location for the camera app and retake the photo at ${target.name}.`,
    });
  }
  const cap = input.maxAccuracyCreditM ?? BASE_THRESHOLDS.maxAccuracyCreditM;
  const accuracy = photo.accuracyM !== null && Number.isFinite(photo.accuracyM) ? Math.max(0, photo.accuracyM) : 0;
  const credit = round1(Math.min(accuracy, cap));
  const allowance = round1(radiusM + credit);
  // Judge the figure we show, so the verdict never contradicts the numbers printed beside it.
  const metres = round1(distanceM(photo, target));
  const passed = metres <= allowance;
  const allowed = credit > 0 ? `${fmt(allowance)} m allowed (${fmt(radiusM)} m + ${fmt(credit)} m GPS accuracy)` : `${fmt(allowance)} m allowed`;
  return judged("location_match", passed, {
    score: linearScore(metres, allowance),
    value: metres,
    threshold: allowance,
    message: passed ? `Taken ${fmt(metres)} m from ${target.name}, within the ${allowed}.` : `Taken ${fmt(metres)} m from ${target.name}, beyond the ${allowed}.`,
    instruction: `Stand within ${fmt(radiusM)} m of ${target.name}: you were ${fmt(metres)} m away.`,
    extra: { distance_m: metres, radius_m: radiusM, accuracy_credit_m: credit },
  });
}

// ---------------------------------------------------------------------------------------------
// angle_match

export interface AngleCheckInput {
  /** Where the camera stood and which way it faced (EXIF GPSImgDirection / Ref); null without GPS. */
  photo: { lat: number; lng: number; directionDeg: number | null; directionRef: DirectionRef | null; capturedAt: Date | null } | null;
  target: { lat: number; lng: number; name?: string };
  angle: Angle;
  toleranceDeg?: number;
  minDistanceM?: number;
  /**
   * Dates the magnetic correction when the photo does not say when it was taken (the upload
   * time does: declination drifts by about 0.1° a year, far inside the tolerance).
   */
  fallbackDate?: Date;
}

/**
 * The camera's direction (corrected to true north when the EXIF gives it as magnetic) against the
 * bearing from the camera to the target, for angles that face the target. Passes up to the
 * tolerance inclusive; the score is 1 dead on, 0.5 at the tolerance, 0 at twice it. Not judged —
 * and so never passed — without a direction, without a position, or standing on the target.
 */
export function checkAngle(input: AngleCheckInput): CheckResult {
  const { photo, target, angle } = input;
  const tolerance = input.toleranceDeg ?? BASE_THRESHOLDS.angleToleranceDeg;
  const minDistance = input.minDistanceM ?? BASE_THRESHOLDS.minBearingDistanceM;
  const place = target.name ?? "the target";
  if (!isFacing(angle)) {
    return notEvaluated("angle_match", `A ${angle.replaceAll("_", " ")} photo does not face one point, so the camera's direction is not checked.`);
  }
  if (!photo) return notEvaluated("angle_match", "The photo has no GPS position, so the direction to the target is unknown.", tolerance);
  if (photo.directionDeg === null || !Number.isFinite(photo.directionDeg)) {
    return notEvaluated("angle_match", "The photo does not record which way the camera faced (no compass direction in its EXIF).", tolerance);
  }
  const distance = distanceM(photo, target);
  if (distance < minDistance) {
    return notEvaluated("angle_match", `Taken ${fmt(distance)} m from the target point: too close for the direction to it to mean anything.`, tolerance);
  }

  let heading: number;
  let declination: number | null = null;
  if (photo.directionRef === "magnetic") {
    const when = photo.capturedAt ?? input.fallbackDate ?? null;
    if (!when) return notEvaluated("angle_match", "The compass direction is magnetic and the photo has no date to correct it to true north.", tolerance);
    try {
      heading = trueHeading(photo.directionDeg, "magnetic", photo.lat, photo.lng, when);
    } catch (error) {
      return notEvaluated("angle_match", `The magnetic compass direction could not be corrected to true north: ${error instanceof Error ? error.message : String(error)}.`, tolerance);
    }
    declination = round1(heading - photo.directionDeg);
    // Keep the printed declination in (−180, 180] even when the correction wrapped across north.
    if (declination > 180) declination = round1(declination - 360);
    if (declination <= -180) declination = round1(declination + 360);
  } else {
    // True, or no reference at all, which the EXIF standard defines as true.
    heading = normaliseDeg(photo.directionDeg);
  }

  const bearing = bearingDeg(photo, target);
  const off = round1(angularDifferenceDeg(heading, bearing));
  const passed = off <= tolerance;
  const facing = declination === null ? `${fmt(heading)}°` : `${fmt(heading)}° true (compass ${fmt(photo.directionDeg)}° magnetic, declination ${declination > 0 ? "+" : ""}${fmt(declination)}°)`;
  return judged("angle_match", passed, {
    score: linearScore(off, tolerance),
    value: off,
    threshold: tolerance,
    message: `The camera faced ${facing}; ${place} lies at ${fmt(bearing)}°: ${fmt(off)}° off, ${passed ? "within" : "beyond"} the ${fmt(tolerance)}° allowed.`,
    instruction: `Face ${FACING_SUBJECT[angle](place)}, to the ${compassPointName(bearing)} of where you stood: you were pointing ${fmt(off)}° away.`,
    extra: { heading_true_deg: round1(heading), bearing_deg: round1(bearing), declination_deg: declination, distance_m: round1(distance) },
  });
}

// ---------------------------------------------------------------------------------------------
// time_of_day

export interface TimeOfDayCheckInput {
  capturedAt: Date | null;
  lat: number;
  lng: number;
  /** The location's IANA zone, in which the time window is read. */
  timeZone: string;
  timeOfDay?: TimeOfDay;
  /** "HH:MM-HH:MM" local; an end before the start runs past midnight. */
  timeWindow?: string;
}

const TIME_OF_DAY_PHRASE: Record<TimeOfDay, string> = { daylight: "in daylight", midday: "around midday", evening: "in the evening" };

interface Condition {
  ok: boolean;
  threshold: string;
  detail: string;
  instruction: string;
}

/**
 * The sun at the capture instant and place (daylight: above the horizon; midday: within 2 h of
 * solar noon; evening: from 1 h before sunset to 2 h after) and the local time window, each when
 * asked. A yes/no check (score 1 or 0): a photo outside what was ordered does not partly count.
 *
 * @throws RangeError for a malformed time window (orders are validated before they get here).
 */
export function checkTimeOfDay(input: TimeOfDayCheckInput): CheckResult {
  const { capturedAt, lat, lng, timeZone, timeOfDay, timeWindow } = input;
  const window = timeWindow === undefined ? null : parseTimeWindow(timeWindow);
  if (timeWindow !== undefined && !window) throw new RangeError(`Not a time window (HH:MM-HH:MM): ${JSON.stringify(timeWindow)}`);
  if (!timeOfDay && !window) return notEvaluated("time_of_day", "The order asks for no particular time of day.");

  const asked = [timeOfDay, window ? `${window.start}-${window.end} local time` : null].filter(Boolean).join(", ");
  const wanted = [timeOfDay ? TIME_OF_DAY_PHRASE[timeOfDay] : null, window ? `between ${window.start} and ${window.end} local time` : null].filter(Boolean).join(" and ");
  if (!capturedAt || !Number.isFinite(capturedAt.getTime())) {
    return judged("time_of_day", false, {
      score: 0,
      value: null,
      threshold: asked,
      message: "The photo does not say when it was taken, so its time of day cannot be checked.",
      instruction: `Take the photo with the phone's camera app, so it records the time, ${wanted}.`,
    });
  }

  const local = hhmm(capturedAt, timeZone);
  const altitude = round1(sunAltitudeDeg(capturedAt, lat, lng));
  const extra: Record<string, unknown> = { sun_altitude_deg: altitude, local_time: local, time_zone: timeZone };
  const conditions: Condition[] = [];
  if (timeOfDay) conditions.push(sunCondition(timeOfDay, capturedAt, lat, lng, timeZone, altitude, extra));
  if (window) {
    const p = localParts(capturedAt, timeZone);
    const minute = p.hour * 60 + p.minute;
    const [sh = 0, sm = 0] = window.start.split(":").map(Number);
    const [eh = 0, em = 0] = window.end.split(":").map(Number);
    const start = sh * 60 + sm;
    const end = eh * 60 + em;
    // Start inclusive, end exclusive, like the order cycle's window; past midnight it wraps.
    const inside = window.crossesMidnight ? minute >= start || minute < end : minute >= start && minute < end;
    conditions.push({
      ok: inside,
      threshold: `${window.start}-${window.end} local`,
      detail: `${local} local time is ${inside ? "inside" : "outside"} the ${window.start}-${window.end} window`,
      instruction: `Come back between ${window.start} and ${window.end} local time.`,
    });
  }

  const passed = conditions.every((c) => c.ok);
  return judged("time_of_day", passed, {
    score: passed ? 1 : 0,
    // The sun's altitude when the order asked about the sun, else the local time the window is read in.
    value: timeOfDay ? altitude : local,
    threshold: conditions.map((c) => c.threshold).join("; "),
    message: `Taken at ${local} local time (${timeZone}), sun at ${fmt(altitude)}°: ${conditions.map((c) => c.detail).join("; ")}.`,
    instruction: conditions
      .filter((c) => !c.ok)
      .map((c) => c.instruction)
      .join(" "),
    extra,
  });
}

function sunCondition(timeOfDay: TimeOfDay, at: Date, lat: number, lng: number, timeZone: string, altitude: number, extra: Record<string, unknown>): Condition {
  switch (timeOfDay) {
    case "daylight": {
      const ok = altitude > SUNRISE_ALTITUDE_DEG;
      const day = sunriseSunset(at, lat, lng);
      const when =
        day.sunrise && day.sunset
          ? `between sunrise (${hhmm(day.sunrise, timeZone)}) and sunset (${hhmm(day.sunset, timeZone)}) local time`
          : day.polar === "night"
            ? "when the sun is up (it does not rise here at this time of year)"
            : "when the sun is up";
      return {
        ok,
        threshold: `daylight: sun above ${SUNRISE_ALTITUDE_DEG}°`,
        detail: ok ? "in daylight" : "the sun was down",
        instruction: `Come back in daylight, ${when}.`,
      };
    }
    case "midday": {
      const noon = solarNoon(at, lat, lng);
      const hours = TIME_OF_DAY_RULES.middayHours;
      const offH = Math.abs(at.getTime() - noon.getTime()) / 3_600_000;
      const ok = offH <= hours;
      const from = hhmm(new Date(noon.getTime() - hours * 3_600_000), timeZone);
      const to = hhmm(new Date(noon.getTime() + hours * 3_600_000), timeZone);
      extra.solar_noon = noon.toISOString();
      return {
        ok,
        threshold: `midday: ${from}-${to} local (solar noon ${hhmm(noon, timeZone)} ± ${hours} h)`,
        detail: `${fmt(offH)} h from solar noon (${hhmm(noon, timeZone)})`,
        instruction: `Come back around midday, between ${from} and ${to} local time (solar noon is at ${hhmm(noon, timeZone)}).`,
      };
    }
    case "evening": {
      const sunset = nearestSunset(at, lat, lng);
      if (!sunset) {
        return {
          ok: false,
          threshold: "evening: around sunset",
          detail: "the sun does not set here on this date, so there is no evening",
          instruction: "The sun does not set here at this time of year, so an evening photo cannot be taken now.",
        };
      }
      const before = TIME_OF_DAY_RULES.eveningBeforeSunsetHours * 3_600_000;
      const after = TIME_OF_DAY_RULES.eveningAfterSunsetHours * 3_600_000;
      const ok = at.getTime() >= sunset.getTime() - before && at.getTime() <= sunset.getTime() + after;
      const from = hhmm(new Date(sunset.getTime() - before), timeZone);
      const to = hhmm(new Date(sunset.getTime() + after), timeZone);
      extra.sunset = sunset.toISOString();
      return {
        ok,
        threshold: `evening: ${from}-${to} local (sunset ${hhmm(sunset, timeZone)} −${TIME_OF_DAY_RULES.eveningBeforeSunsetHours} h/+${TIME_OF_DAY_RULES.eveningAfterSunsetHours} h)`,
        detail: ok ? `in the evening (sunset ${hhmm(sunset, timeZone)})` : `not in the evening (sunset ${hhmm(sunset, timeZone)})`,
        instruction: `Come back in the evening, between ${from} and ${to} local time (sunset is at ${hhmm(sunset, timeZone)}).`,
      };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// quality

/** The mission QA checks of the image, as one verdict: passed when all passed. */
export function checkQuality(qaChecks: QaCheck[]): CheckResult {
  if (qaChecks.length === 0) return notEvaluated("quality", "No QA checks were recorded for this photo.", "all QA checks pass");
  const failed = qaChecks.filter((c) => !c.passed);
  const passed = failed.length === 0;
  return judged("quality", passed, {
    score: round3((qaChecks.length - failed.length) / qaChecks.length),
    value: passed ? null : failed.map((c) => c.check).join(", "),
    threshold: "all QA checks pass",
    message: passed ? `All ${qaChecks.length} QA checks passed.` : `${failed.length} of ${qaChecks.length} QA checks failed: ${failed.map((c) => c.check).join(", ")}.`,
    // reasonsFrom drops the consequences of a missing GPS fix or an undecodable file, so the
    // zoomer reads the cause once rather than four times.
    instruction: reasonsFrom(qaChecks).join(" "),
  });
}

// ---------------------------------------------------------------------------------------------
// Analysis checks: obstruction, minimum_crowd, brand_match

export interface AnalysisInput {
  image: Buffer;
  checks: AnalysisCheckName[];
  brand?: string;
  crowd?: CrowdLevel;
  /** Aborted when the caller stops waiting; an analyser that does I/O should pass it on. */
  signal?: AbortSignal;
}

export interface AnalysisVerdict {
  score: number;
  passed: boolean;
  value?: unknown;
  extra?: Record<string, unknown>;
}

export interface Analyser {
  name: string;
  /**
   * The checks it can evaluate, and what it is (for the reason given for the others); undefined:
   * all three. A local analyser that reads text cannot judge a crowd, and says so.
   */
  evaluates?: { checks: readonly AnalysisCheckName[]; what: string };
  /** How long it may take when the caller names no limit (default ANALYSIS_TIMEOUT_MS). */
  timeLimitMs?: number;
  analyse(input: AnalysisInput): Promise<Partial<Record<AnalysisCheckName, AnalysisVerdict>>>;
}

const ANALYSIS_WHAT: Record<AnalysisCheckName, (input: AnalysisInput) => string> = {
  obstruction: () => "whether the view is obstructed",
  minimum_crowd: (i) => `whether the place looks ${i.crowd ?? "busy"} enough`,
  brand_match: (i) => `whether ${i.brand ? `"${i.brand}"` : "the brand"} is visible`,
};

function analysisMessage(check: AnalysisCheckName, passed: boolean, input: AnalysisInput, analyser: string): Pick<CheckResult, "message" | "instruction" | "threshold"> {
  switch (check) {
    case "obstruction":
      return {
        threshold: null,
        message: passed ? `The ${analyser} analyser found a clear view.` : `The ${analyser} analyser found the view obstructed.`,
        instruction: "Find a spot with a clear view: something was in the way.",
      };
    case "minimum_crowd":
      return {
        threshold: input.crowd ?? null,
        message: passed ? `The ${analyser} analyser found at least a ${input.crowd ?? "requested"} crowd.` : `The ${analyser} analyser found less than a ${input.crowd ?? "requested"} crowd.`,
        instruction: `Come back when the place is busier: the order asks for a ${input.crowd ?? "larger"} crowd.`,
      };
    case "brand_match":
      return {
        threshold: input.brand ?? null,
        message: passed ? `The ${analyser} analyser found "${input.brand ?? "the brand"}".` : `The ${analyser} analyser did not find "${input.brand ?? "the brand"}".`,
        instruction: `Make sure the ${input.brand ?? "brand's"} sign or logo is in the frame and readable.`,
      };
  }
}

/** An analyser's `value` as a recordable figure: numbers and strings as they are, anything else as JSON. */
function recordable(value: unknown): number | string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string") return value;
  const json = JSON.stringify(value);
  return json === undefined ? null : json.length > 500 ? `${json.slice(0, 499)}…` : json;
}

/** Rejects after `ms`, and lets the caller cancel the timer once the work settles. */
function deadline(ms: number): { promise: Promise<never>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AnalysisTimeout(ms)), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

class AnalysisTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${duration(ms)}`);
  }
}

export const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${fmt(ms / 1000)} s`);

/**
 * Runs the asked analysis checks through the analyser. With no analyser, or one that throws,
 * times out, leaves a check out or answers nonsense, each affected check is `not_evaluated` with
 * the reason — an unavailable analyser must not approve a photo, nor reject one.
 */
export async function runAnalysisChecks(
  analyser: Analyser | null,
  input: AnalysisInput,
  options: { timeoutMs?: number } = {},
): Promise<Partial<Record<AnalysisCheckName, CheckResult>>> {
  const checks = [...new Set(input.checks)];
  const out: Partial<Record<AnalysisCheckName, CheckResult>> = {};
  if (checks.length === 0) return out;
  const all = (message: (check: AnalysisCheckName) => string) => {
    for (const check of checks) out[check] = notEvaluated(check, message(check));
    return out;
  };
  if (!analyser) return all((check) => `No image analyser is configured, so ${ANALYSIS_WHAT[check](input)} was not checked.`);
  const evaluates = analyser.evaluates;
  if (evaluates) {
    for (const check of checks.filter((c) => !evaluates.checks.includes(c))) {
      out[check] = notEvaluated(check, `The ${analyser.name} analyser ${evaluates.what}, so ${ANALYSIS_WHAT[check](input)} was not checked.`);
    }
    const asked = checks.filter((c) => evaluates.checks.includes(c));
    if (asked.length === 0) return out;
    const asOne: Analyser = { name: analyser.name, analyse: (i) => analyser.analyse(i), ...(analyser.timeLimitMs ? { timeLimitMs: analyser.timeLimitMs } : {}) };
    return { ...out, ...(await runAnalysisChecks(asOne, { ...input, checks: asked }, options)) };
  }

  const timeoutMs = options.timeoutMs ?? analyser.timeLimitMs ?? ANALYSIS_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = deadline(timeoutMs);
  let verdicts: Partial<Record<AnalysisCheckName, AnalysisVerdict>>;
  try {
    const work = analyser.analyse({ ...input, checks, signal: input.signal ? AbortSignal.any([input.signal, controller.signal]) : controller.signal });
    // A late rejection after the deadline has nobody left to hear it.
    work.catch(() => {});
    verdicts = await Promise.race([work, timer.promise]);
  } catch (error) {
    controller.abort();
    const why = error instanceof AnalysisTimeout ? `gave no answer within ${duration(error.ms)}` : `failed (${error instanceof Error ? error.message : String(error)})`;
    return all((check) => `The ${analyser.name} analyser ${why}, so ${ANALYSIS_WHAT[check](input)} was not checked.`);
  } finally {
    timer.cancel();
  }

  for (const check of checks) {
    const verdict = verdicts[check];
    if (!verdict) {
      out[check] = notEvaluated(check, `The ${analyser.name} analyser gave no ${check} result, so ${ANALYSIS_WHAT[check](input)} was not checked.`);
      continue;
    }
    if (typeof verdict.passed !== "boolean" || !Number.isFinite(verdict.score) || verdict.score < 0 || verdict.score > 1) {
      out[check] = notEvaluated(check, `The ${analyser.name} analyser's ${check} result was not a score from 0 to 1 with a verdict, so it was ignored.`);
      continue;
    }
    const words = analysisMessage(check, verdict.passed, input, analyser.name);
    out[check] = judged(check, verdict.passed, {
      score: round3(verdict.score),
      value: recordable(verdict.value),
      threshold: words.threshold,
      message: words.message,
      instruction: words.instruction,
      extra: { ...verdict.extra, analyser: analyser.name },
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// verifyPhoto

/** What verification needs to know about a photo. */
export interface PhotoFacts {
  gps: { lat: number; lng: number; accuracyM: number | null; directionDeg: number | null; directionRef: DirectionRef | null } | null;
  capturedAt: Date | null;
  /** When the photo arrived: dates the magnetic correction when the photo has no capture time. */
  receivedAt?: Date;
}

/**
 * The photo's EXIF as verification facts. A capture time written without a UTC offset is read in
 * the location's zone — cameras keep local time, and a photo that passes is taken there — rather
 * than as UTC, which would shift it by the zone's offset and could flip the time-of-day verdict.
 */
export function photoFactsFromExif(exif: ExifSummary, timeZone: string, receivedAt?: Date): PhotoFacts {
  const gps = exif.gps
    ? { lat: exif.gps.lat, lng: exif.gps.lng, accuracyM: exif.gps.accuracy_m, directionDeg: exif.gps.direction_deg, directionRef: exif.gps.direction_ref }
    : null;
  let capturedAt: Date | null = exif.captured_at ? new Date(exif.captured_at) : null;
  if (exif.captured_at_source === "assumed_utc" && exif.captured_at_local) {
    const [date = "", time = ""] = exif.captured_at_local.split("T");
    try {
      const minute = zonedTimeToUtc(date, time.slice(0, 5), timeZone);
      capturedAt = new Date(minute.getTime() + Number(time.slice(6, 8) || 0) * 1000);
    } catch {
      // Keep the UTC reading: a malformed local time is no better a guess.
    }
  }
  if (capturedAt && !Number.isFinite(capturedAt.getTime())) capturedAt = null;
  return { gps, capturedAt, ...(receivedAt ? { receivedAt } : {}) };
}

export interface VerifyPhotoInput {
  photo: PhotoFacts;
  target: { lat: number; lng: number; name: string };
  category: Category;
  angle: Angle;
  /** The location's IANA zone (stored with the order). */
  timeZone: string;
  requirements?: { timeOfDay?: TimeOfDay; timeWindow?: string; minimumCrowd?: CrowdLevel; brand?: string };
  qaChecks: QaCheck[];
  /** The image bytes, for the analyser. */
  image?: Buffer | null;
  analyser?: Analyser | null;
  thresholds?: Partial<VerificationThresholds>;
  analysisTimeoutMs?: number;
}

export interface VerificationResult {
  status: "approved" | "rejected";
  ai_checks: Record<VerificationCheckName, CheckResult>;
  /** What to do differently, one sentence per failed check, for the retake. */
  instructions: string[];
}

/**
 * Every check of one ordered photo, and the verdict: approved when location and quality passed,
 * and the angle (when it could be judged), the time of day (when asked) and each analysis check
 * (when asked and evaluated) did not fail. Not-evaluated checks never count as passed.
 */
export async function verifyPhoto(input: VerifyPhotoInput): Promise<VerificationResult> {
  const thresholds: VerificationThresholds = { ...VERIFICATION_THRESHOLDS[input.category], ...input.thresholds };
  const { photo, target, requirements = {} } = input;
  const gps = photo.gps;

  const location = checkLocation({
    photo: gps ? { lat: gps.lat, lng: gps.lng, accuracyM: gps.accuracyM } : null,
    target,
    radiusM: thresholds.locationRadiusM,
    maxAccuracyCreditM: thresholds.maxAccuracyCreditM,
  });
  const angle = checkAngle({
    photo: gps ? { lat: gps.lat, lng: gps.lng, directionDeg: gps.directionDeg, directionRef: gps.directionRef, capturedAt: photo.capturedAt } : null,
    target,
    angle: input.angle,
    toleranceDeg: thresholds.angleToleranceDeg,
    minDistanceM: thresholds.minBearingDistanceM,
    ...(photo.receivedAt ? { fallbackDate: photo.receivedAt } : {}),
  });
  const timeAsked = requirements.timeOfDay !== undefined || requirements.timeWindow !== undefined;
  const time = checkTimeOfDay({
    capturedAt: photo.capturedAt,
    lat: target.lat,
    lng: target.lng,
    timeZone: input.timeZone,
    ...(requirements.timeOfDay ? { timeOfDay: requirements.timeOfDay } : {}),
    ...(requirements.timeWindow ? { timeWindow: requirements.timeWindow } : {}),
  });
  const quality = checkQuality(input.qaChecks);

  // An obstructed view spoils any ordered photo, so obstruction is always asked; crowd and brand
  // only when the order names them.
  const asked: AnalysisCheckName[] = ["obstruction"];
  if (requirements.minimumCrowd) asked.push("minimum_crowd");
  if (requirements.brand) asked.push("brand_match");
  const analysisInput = {
    checks: asked,
    ...(requirements.brand ? { brand: requirements.brand } : {}),
    ...(requirements.minimumCrowd ? { crowd: requirements.minimumCrowd } : {}),
  };
  const analysis = input.image
    ? await runAnalysisChecks(input.analyser ?? null, { image: input.image, ...analysisInput }, input.analysisTimeoutMs ? { timeoutMs: input.analysisTimeoutMs } : {})
    : Object.fromEntries(asked.map((check) => [check, notEvaluated(check, "The image was not available for analysis.")]));
  const analysisResult = (check: AnalysisCheckName): CheckResult => analysis[check] ?? notEvaluated(check, "The order does not ask for this check.");

  const ai_checks: Record<VerificationCheckName, CheckResult> = {
    location_match: location,
    angle_match: angle,
    time_of_day: time,
    quality,
    obstruction: analysisResult("obstruction"),
    minimum_crowd: analysisResult("minimum_crowd"),
    brand_match: analysisResult("brand_match"),
  };

  const blocking: CheckResult[] = [
    ...[location, quality].filter((c) => c.status !== "passed"),
    ...(angle.status === "failed" ? [angle] : []),
    ...(timeAsked && time.status !== "passed" ? [time] : []),
    ...asked.map((check) => ai_checks[check]).filter((c) => c.status === "failed"),
  ];
  return {
    status: blocking.length === 0 ? "approved" : "rejected",
    ai_checks,
    instructions: blocking.map((c) => c.instruction).filter((s): s is string => typeof s === "string" && s !== ""),
  };
}
