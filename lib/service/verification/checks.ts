/**
 * The automated verification of an ordered photo: pure functions from the photo's facts (GPS,
 * compass direction, capture time, QA results) and the order's requirements to recorded
 * verdicts, each with a score, its measured value, a sentence for the partner and — when it
 * fails — what the zoomer should do differently on the retake.
 *
 * No database, no clock and no I/O: an image analyser (the local OCR one, or ./http-analyser) is
 * passed in, and its absence or failure is recorded as "not evaluated", never as a pass.
 */
import type { QaCheck } from "@/lib/schemas/qa";
import type { Angle, Category, CROWD_LEVELS, TimeOfDay } from "@/lib/orders/vocabulary";
import { reasonCodesFrom, reasonsFrom } from "@/lib/service/qa/checks";
import { photoFactsFromExif, type PhotoFacts } from "@/lib/verification/photo-facts";
import { checkTimeOfDay } from "@/lib/verification/time-of-day";
import {
  checkAngle,
  checkLocation,
  fmt,
  judged,
  notEvaluated,
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
export {
  checkAngle,
  checkLocation,
  VERIFICATION_CHECKS,
  VERIFICATION_THRESHOLDS,
  type CheckResult,
  type Localisable,
  type VerificationCheckName,
  type VerificationThresholds,
};
// The sun and the local time window (time_of_day) too: the phone judges the same before sending.
export { checkTimeOfDay, photoFactsFromExif, type PhotoFacts };
export type { TimeOfDayCheckInput } from "@/lib/verification/time-of-day";

export const ANALYSIS_CHECKS = ["obstruction", "minimum_crowd", "brand_match"] as const;
export type AnalysisCheckName = (typeof ANALYSIS_CHECKS)[number];
export type CrowdLevel = (typeof CROWD_LEVELS)[number];

/** How long an analyser may take before its checks are recorded as not evaluated. */
export const ANALYSIS_TIMEOUT_MS = 15_000;

// ---------------------------------------------------------------------------------------------
// quality

/** The mission QA checks of the image, as one verdict: passed when all passed. */
export function checkQuality(qaChecks: QaCheck[]): CheckResult {
  if (qaChecks.length === 0)
    return notEvaluated("quality", "No QA checks were recorded for this photo.", "all QA checks pass", undefined, { code: "quality.none", params: {} });
  const failed = qaChecks.filter((c) => !c.passed);
  const passed = failed.length === 0;
  return judged("quality", passed, {
    score: round3((qaChecks.length - failed.length) / qaChecks.length),
    value: passed ? null : failed.map((c) => c.check).join(", "),
    threshold: "all QA checks pass",
    message: passed
      ? `All ${qaChecks.length} QA checks passed.`
      : `${failed.length} of ${qaChecks.length} QA checks failed: ${failed.map((c) => c.check).join(", ")}.`,
    // reasonsFrom drops the consequences of a missing GPS fix or an undecodable file, so the
    // zoomer reads the cause once rather than four times.
    instruction: reasonsFrom(qaChecks).join(" "),
    coded: {
      message: passed
        ? { code: "quality.all_passed", params: { total: qaChecks.length } }
        : { code: "quality.some_failed", params: { failed: failed.length, total: qaChecks.length, checks: failed.map((c) => c.check).join(", ") } },
      instructions: reasonCodesFrom(qaChecks),
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
  /** What the photo should show: a facing angle narrows where an obstruction counts. */
  angle?: Angle;
  /** Aborted when the caller stops waiting; an analyser that does I/O should pass it on. */
  signal?: AbortSignal;
}

export interface AnalysisVerdict {
  score: number;
  passed: boolean;
  value?: unknown;
  /** An analyser that knows its measure says it in its own words; otherwise generic ones are used. */
  threshold?: number | string;
  message?: string;
  instruction?: string;
  /** `message` and `instruction` as codes and figures; without them the generic words' codes are used. */
  coded?: { message: Localisable; instructions: Localisable[] };
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

// Words for the partner reading the review: what was found, not which service found it (an
// operator's ANALYSER_URL host is no business of theirs; the analyser's name stays in `extra`).
function analysisMessage(
  check: AnalysisCheckName,
  passed: boolean,
  input: AnalysisInput,
): Pick<CheckResult, "message" | "instruction" | "threshold"> & { coded: { message: Localisable; instructions: Localisable[] } } {
  switch (check) {
    case "obstruction":
      return {
        threshold: null,
        message: passed ? "The image analysis found a clear view." : "The image analysis found the view obstructed.",
        instruction: "Find a spot with a clear view: something was in the way.",
        coded: {
          message: { code: passed ? "obstruction.analysis_clear" : "obstruction.analysis_blocked", params: {} },
          instructions: [{ code: "obstruction.find_clear_view", params: {} }],
        },
      };
    case "minimum_crowd": {
      const ordered = input.crowd ?? "moderate";
      return {
        threshold: input.crowd ?? null,
        message: passed
          ? `The image analysis found at least a ${input.crowd ?? "requested"} crowd.`
          : `The image analysis found less than a ${input.crowd ?? "requested"} crowd.`,
        instruction: `Come back when the place is busier: the order asks for a ${input.crowd ?? "larger"} crowd.`,
        coded: {
          message: { code: passed ? "minimum_crowd.analysis_enough" : "minimum_crowd.analysis_too_few", params: { ordered } },
          instructions: [{ code: "minimum_crowd.come_back_busier", params: { ordered } }],
        },
      };
    }
    case "brand_match":
      return {
        threshold: input.brand ?? null,
        message: passed ? `The image analysis found "${input.brand ?? "the brand"}".` : `The image analysis did not find "${input.brand ?? "the brand"}".`,
        instruction: `Make sure the ${input.brand ?? "brand's"} sign or logo is in the frame and readable.`,
        coded: {
          message: { code: passed ? "brand_match.found" : "brand_match.not_found", params: { brand: input.brand ?? "" } },
          instructions: [{ code: "brand_match.in_frame", params: { brand: input.brand ?? "" } }],
        },
      };
  }
}

/** Why an analysis check was not evaluated, as a code for the reader (the English sentence names the operator's analyser; the code does not). */
const notAnalysed = (code: `not_evaluated.${"no_analyser" | "cannot_judge" | "no_answer" | "no_result" | "no_image" | "not_asked"}`): Localisable => ({
  code,
  params: {},
});

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
  const all = (message: (check: AnalysisCheckName) => string, coded: Localisable) => {
    for (const check of checks) out[check] = notEvaluated(check, message(check), null, undefined, coded);
    return out;
  };
  if (!analyser)
    return all((check) => `No image analyser is configured, so ${ANALYSIS_WHAT[check](input)} was not checked.`, notAnalysed("not_evaluated.no_analyser"));
  const evaluates = analyser.evaluates;
  if (evaluates) {
    for (const check of checks.filter((c) => !evaluates.checks.includes(c))) {
      out[check] = notEvaluated(
        check,
        `The ${analyser.name} analyser ${evaluates.what}, so ${ANALYSIS_WHAT[check](input)} was not checked.`,
        null,
        undefined,
        notAnalysed("not_evaluated.cannot_judge"),
      );
    }
    const asked = checks.filter((c) => evaluates.checks.includes(c));
    if (asked.length === 0) return out;
    const asOne: Analyser = {
      name: analyser.name,
      analyse: (i) => analyser.analyse(i),
      ...(analyser.timeLimitMs ? { timeLimitMs: analyser.timeLimitMs } : {}),
    };
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
    const why =
      error instanceof AnalysisTimeout ? `gave no answer within ${duration(error.ms)}` : `failed (${error instanceof Error ? error.message : String(error)})`;
    return all((check) => `The ${analyser.name} analyser ${why}, so ${ANALYSIS_WHAT[check](input)} was not checked.`, notAnalysed("not_evaluated.no_answer"));
  } finally {
    timer.cancel();
  }

  for (const check of checks) {
    const verdict = verdicts[check];
    if (!verdict) {
      out[check] = notEvaluated(
        check,
        `The ${analyser.name} analyser gave no ${check} result, so ${ANALYSIS_WHAT[check](input)} was not checked.`,
        null,
        undefined,
        notAnalysed("not_evaluated.no_result"),
      );
      continue;
    }
    if (typeof verdict.passed !== "boolean" || !Number.isFinite(verdict.score) || verdict.score < 0 || verdict.score > 1) {
      out[check] = notEvaluated(
        check,
        `The ${analyser.name} analyser's ${check} result was not a score from 0 to 1 with a verdict, so it was ignored.`,
        null,
        undefined,
        notAnalysed("not_evaluated.no_result"),
      );
      continue;
    }
    const words = analysisMessage(check, verdict.passed, input);
    out[check] = judged(check, verdict.passed, {
      score: round3(verdict.score),
      value: recordable(verdict.value),
      threshold: verdict.threshold ?? words.threshold,
      message: verdict.message ?? words.message,
      instruction: verdict.instruction ?? words.instruction,
      // An analyser's own English without codes is said in the generic words' codes.
      coded: verdict.coded ?? words.coded,
      extra: { ...verdict.extra, analyser: analyser.name },
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// verifyPhoto

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
  /** The judged `authenticity` check (./assess-authenticity.ts); not evaluated when absent. */
  authenticity?: CheckResult | null;
}

export interface VerificationResult {
  /** `held`: the authenticity check failed, and a person decides (never delivered or retaken automatically). */
  status: "approved" | "rejected" | "held";
  ai_checks: Record<VerificationCheckName, CheckResult>;
  /** What to do differently, one sentence per failed check, for the retake. */
  instructions: string[];
  /** The same as codes and figures for pages to say in the reader's language (`text`: an English sentence without a code yet). */
  instruction_codes: Localisable[];
}

/**
 * Every check of one ordered photo, and the verdict: approved when location and quality passed,
 * and the angle (when it could be judged), the time of day (when asked) and each analysis check
 * (when asked and evaluated) did not fail. Not-evaluated checks never count as passed. A failed
 * `authenticity` check holds the photo for review instead.
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
    angle: input.angle,
    ...(requirements.brand ? { brand: requirements.brand } : {}),
    ...(requirements.minimumCrowd ? { crowd: requirements.minimumCrowd } : {}),
  };
  const analysis = input.image
    ? await runAnalysisChecks(
        input.analyser ?? null,
        { image: input.image, ...analysisInput },
        input.analysisTimeoutMs ? { timeoutMs: input.analysisTimeoutMs } : {},
      )
    : Object.fromEntries(
        asked.map((check) => [check, notEvaluated(check, "The image was not available for analysis.", null, undefined, notAnalysed("not_evaluated.no_image"))]),
      );
  const analysisResult = (check: AnalysisCheckName): CheckResult =>
    analysis[check] ?? notEvaluated(check, "The order does not ask for this check.", null, undefined, notAnalysed("not_evaluated.not_asked"));

  const ai_checks: Record<VerificationCheckName, CheckResult> = {
    location_match: location,
    angle_match: angle,
    time_of_day: time,
    quality,
    obstruction: analysisResult("obstruction"),
    minimum_crowd: analysisResult("minimum_crowd"),
    brand_match: analysisResult("brand_match"),
    authenticity:
      input.authenticity ??
      notEvaluated("authenticity", "The photo's authenticity was not assessed.", null, undefined, { code: "authenticity.not_assessed", params: {} }),
  };

  const blocking: CheckResult[] = [
    ...[location, quality].filter((c) => c.status !== "passed"),
    ...(angle.status === "failed" ? [angle] : []),
    ...(timeAsked && time.status !== "passed" ? [time] : []),
    ...asked.map((check) => ai_checks[check]).filter((c) => c.status === "failed"),
  ];
  // A suspected fake is held whatever else it passed or failed: a retake would only invite another try.
  const held = ai_checks.authenticity.status === "failed";
  return {
    status: held ? "held" : blocking.length === 0 ? "approved" : "rejected",
    ai_checks,
    instructions: held ? [] : blocking.map((c) => c.instruction).filter((s): s is string => typeof s === "string" && s !== ""),
    instruction_codes: held ? [] : blocking.flatMap((c) => c.instruction_codes ?? (c.instruction ? [{ code: "text", params: { text: c.instruction } }] : [])),
  };
}
