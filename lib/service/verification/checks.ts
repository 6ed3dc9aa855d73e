/**
 * The automated verification of an ordered photo: pure functions from the photo's facts (GPS,
 * compass direction, capture time, QA results) and the order's requirements to recorded
 * verdicts, each with a score, its measured value, a sentence for the partner and — when it
 * fails — what the zoomer should do differently on the retake.
 *
 * No database, no clock and no I/O: an image analyser (the local OCR one, or ./http-analyser) is
 * passed in, and its absence or failure is recorded as "not evaluated", never as a pass.
 */
import { nearestSunset, solarNoon, sunAltitudeDeg, sunriseSunset, SUNRISE_ALTITUDE_DEG, TIME_OF_DAY_RULES } from "@/lib/geo/sun";
import { localParts, zonedTimeToUtc } from "@/lib/geo/time-zone";
import type { ExifSummary } from "@/lib/photos/read-exif";
import type { QaCheck } from "@/lib/schemas/qa";
import type { Angle, Category, CROWD_LEVELS, TimeOfDay } from "@/lib/orders/vocabulary";
import { parseTimeWindow } from "@/lib/service/orders/cycles/cycle-calendar";
import { reasonsFrom } from "@/lib/service/qa/checks";
import type { DirectionRef } from "@/lib/geo/declination";
import {
  checkAngle,
  checkLocation,
  fmt,
  judged,
  notEvaluated,
  round1,
  round3,
  VERIFICATION_CHECKS,
  VERIFICATION_THRESHOLDS,
  type CheckResult,
  type Localisable,
  type VerificationCheckName,
  type VerificationThresholds,
} from "@/lib/verification/place-checks";

// Where and which way (location_match, angle_match) live in lib/verification so the field page
// runs them on the phone too; their names stay importable from here.
export { FACING_ANGLES, type AngleCheckInput, type LocationCheckInput } from "@/lib/verification/place-checks";
export { checkAngle, checkLocation, VERIFICATION_CHECKS, VERIFICATION_THRESHOLDS, type CheckResult, type Localisable, type VerificationCheckName, type VerificationThresholds };

export const ANALYSIS_CHECKS = ["obstruction", "minimum_crowd", "brand_match"] as const;
export type AnalysisCheckName = (typeof ANALYSIS_CHECKS)[number];
export type CrowdLevel = (typeof CROWD_LEVELS)[number];


/** How long an analyser may take before its checks are recorded as not evaluated. */
export const ANALYSIS_TIMEOUT_MS = 15_000;

const hhmm = (instant: Date, timeZone: string) => {
  const p = localParts(instant, timeZone);
  return `${String(p.hour).padStart(2, "0")}:${String(p.minute).padStart(2, "0")}`;
};


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
  coded: Localisable;
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
      coded: { message: { code: "time_of_day.no_time", params: {} }, instructions: [{ code: "time_of_day.use_camera_app", params: {} }] },
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
      coded: { code: "time_of_day.come_back_window", params: { from: window.start, to: window.end } },
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
    coded: { message: { code: "time_of_day.taken_at", params: { local_time: local, time_zone: timeZone } }, instructions: conditions.filter((c) => !c.ok).map((c) => c.coded) },
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
        coded:
          day.sunrise && day.sunset
            ? { code: "time_of_day.come_back_daylight", params: { sunrise: hhmm(day.sunrise, timeZone), sunset: hhmm(day.sunset, timeZone) } }
            : { code: "time_of_day.come_back_sun_up", params: {} },
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
        coded: { code: "time_of_day.come_back_midday", params: { from, to, noon: hhmm(noon, timeZone) } },
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
          coded: { code: "time_of_day.no_evening", params: {} },
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
        coded: { code: "time_of_day.come_back_evening", params: { from, to, sunset: hhmm(sunset, timeZone) } },
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
    // The QA reasons stay English sentences for now (the "text" code carries them as they are).
    coded: {
      message: passed ? { code: "quality.all_passed", params: { total: qaChecks.length } } : { code: "quality.some_failed", params: { failed: failed.length, total: qaChecks.length, checks: failed.map((c) => c.check).join(", ") } },
      instructions: reasonsFrom(qaChecks).map((text) => ({ code: "text", params: { text } })),
    },
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
  /** The same as codes and figures for pages to say in the reader's language (`text`: an English sentence without a code yet). */
  instruction_codes: Localisable[];
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
    instruction_codes: blocking.flatMap((c) => c.instruction_codes ?? (c.instruction ? [{ code: "text", params: { text: c.instruction } }] : [])),
  };
}
