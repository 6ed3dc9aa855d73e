// How the order pages show a delivered photo's verification: each check's verdict as one of
// passed / failed / not evaluated (a not-evaluated check is never shown as passed, whatever its
// `passed` flag says), its score, and the measured value beside the threshold in words. Why a
// check was not evaluated (no analyser configured, one that timed out) is the operator's concern
// and stays in the API record; the reader is told only that it was not checked.

export const CHECK_ORDER = ["location_match", "angle_match", "time_of_day", "quality", "obstruction", "minimum_crowd", "brand_match", "authenticity"] as const;

export const CHECK_LABELS: Record<string, string> = {
  location_match: "Location",
  angle_match: "Direction",
  time_of_day: "Time of day",
  quality: "Photo quality",
  obstruction: "Unobstructed",
  minimum_crowd: "Crowd",
  brand_match: "Brand visible",
  authenticity: "Genuine photo",
};

export type CheckVerdict = "passed" | "failed" | "not_evaluated";

export interface CheckView {
  check: string;
  label: string;
  verdict: CheckVerdict;
  score: number | null;
  measured: string | null;
  threshold: string | null;
  /** The measured value and the threshold as catalogue keys and figures (orders.figure.<key>), for the reader's language; null where only the API's text can say it. */
  figures: { measured: Figure | null; threshold: Figure | null };
  message: string | null;
  /** The message as a stable code and figures (lib/verification/place-checks.ts Localisable), for the reader's language. */
  coded: { code: string; params: Record<string, string | number> } | null;
}

export const NOT_CHECKED = "Not checked for this order.";
/** NOT_CHECKED as a code (messages/<locale>/codes.json). */
const NOT_CHECKED_CODE = { code: "not_evaluated.not_checked", params: {} };

type RawCheck = { score: number; passed: boolean } & Record<string, unknown>;

export interface Figure {
  key: string;
  values: Record<string, number | string>;
}

const fig = (key: string, values: Figure["values"]): Figure => ({ key, values });
const round1 = (v: number) => Math.round(v * 10) / 10;

/** The figures of measuredAndThreshold as catalogue keys, where the value is a number the page can word. */
function figuresOf(check: string, raw: RawCheck): CheckView["figures"] {
  const value = typeof raw.value === "number" ? raw.value : null;
  const threshold = typeof raw.threshold === "number" ? raw.threshold : null;
  const params = raw.params && typeof raw.params === "object" ? (raw.params as Record<string, unknown>) : {};
  switch (check) {
    case "location_match":
      return {
        measured: value === null ? null : fig("metresAway", { value: round1(value) }),
        threshold: threshold === null ? null : fig("metresAllowed", { value: threshold }),
      };
    case "angle_match":
      return {
        measured: value === null ? null : fig("degreesOff", { value: round1(value) }),
        threshold: threshold === null ? null : fig("degreesAllowed", { value: threshold }),
      };
    case "time_of_day":
      return { measured: value === null ? null : fig("sunAt", { value: round1(value) }), threshold: null };
    case "authenticity":
      return { measured: value === null ? null : fig("warningSigns", { count: value }), threshold: null };
    case "quality":
      return {
        measured: raw.value ? fig("qaFailed", { what: String(raw.value) }) : verdictOf(raw) === "passed" ? fig("qaAllPass", {}) : null,
        threshold: null,
      };
    case "minimum_crowd":
      return { measured: typeof params.people === "number" ? fig("people", { count: params.people }) : null, threshold: null };
    case "obstruction": {
      const allowed = typeof params.allowed_pct === "number" ? params.allowed_pct / 100 : threshold;
      return {
        measured: value === null ? null : fig("shareCovered", { share: value }),
        threshold: allowed === null ? null : fig("shareAllowed", { share: allowed }),
      };
    }
    default:
      return { measured: null, threshold: null };
  }
}

export function verdictOf(raw: RawCheck): CheckVerdict {
  const status = raw.status;
  if (status === "not_evaluated") return "not_evaluated";
  if (status === "failed") return "failed";
  if (status === "passed") return raw.passed ? "passed" : "failed";
  return raw.passed ? "passed" : "failed";
}

function figure(value: unknown, unit: string): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "number") return `${Number.isInteger(value) ? value : value.toFixed(1)}${unit}`;
  return String(value);
}

/** The measured value and the threshold, in the units each check measures in. */
function measuredAndThreshold(check: string, raw: RawCheck): { measured: string | null; threshold: string | null } {
  switch (check) {
    case "location_match":
      return { measured: figure(raw.value, " m away"), threshold: figure(raw.threshold, " m allowed") };
    case "angle_match":
      return { measured: figure(raw.value, "° off"), threshold: typeof raw.threshold === "number" ? `±${raw.threshold}°` : figure(raw.threshold, "") };
    case "time_of_day":
      return { measured: typeof raw.value === "number" ? `sun at ${raw.value.toFixed(1)}°` : figure(raw.value, ""), threshold: figure(raw.threshold, "") };
    case "authenticity":
      return {
        measured: typeof raw.value === "number" ? (raw.value === 0 ? "no warning signs" : `${raw.value} warning sign${raw.value === 1 ? "" : "s"}`) : null,
        threshold: null,
      };
    case "quality":
      return { measured: raw.value ? `failed: ${String(raw.value)}` : verdictOf(raw) === "passed" ? "all QA checks pass" : null, threshold: null };
    default:
      return { measured: figure(raw.value, ""), threshold: figure(raw.threshold, "") };
  }
}

/** Every check of a photo in a fixed order (unknown ones after), ready to show. */
export function checkViews(aiChecks: Record<string, RawCheck>): CheckView[] {
  const names = [...CHECK_ORDER.filter((c) => c in aiChecks), ...Object.keys(aiChecks).filter((c) => !(CHECK_ORDER as readonly string[]).includes(c))];
  return names.map((check) => {
    const raw = aiChecks[check] as RawCheck;
    const verdict = verdictOf(raw);
    return {
      check,
      label: CHECK_LABELS[check] ?? check.replaceAll("_", " "),
      verdict,
      score: verdict === "not_evaluated" || typeof raw.score !== "number" ? null : raw.score,
      ...measuredAndThreshold(check, raw),
      figures: verdict === "not_evaluated" ? { measured: null, threshold: null } : figuresOf(check, raw),
      message: verdict === "not_evaluated" ? NOT_CHECKED : typeof raw.message === "string" ? raw.message : null,
      coded:
        verdict === "not_evaluated"
          ? NOT_CHECKED_CODE
          : typeof raw.code === "string" && typeof raw.params === "object" && raw.params !== null
            ? { code: raw.code, params: raw.params as Record<string, string | number> }
            : null,
    };
  });
}
