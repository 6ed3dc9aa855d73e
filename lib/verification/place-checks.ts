/**
 * The verification checks of where a photo was taken and which way it faced (location_match,
 * angle_match), with their thresholds and the shared shape of a check's result: pure functions of
 * positions, directions and dates, with no service, database or I/O, so the field page runs the
 * very same rules on the phone before a photo is sent (components/field) as the service runs after
 * (lib/service/verification/checks.ts, which re-exports them).
 */
import { angularDifferenceDeg, bearingDeg, compassPointName, distanceM, normaliseDeg } from "@/lib/geo/bearing";
import { trueHeading, type DirectionRef } from "@/lib/geo/declination";
import type { Angle, Category } from "@/lib/orders/vocabulary";

export const VERIFICATION_CHECKS = [
  "location_match",
  "angle_match",
  "time_of_day",
  "quality",
  "obstruction",
  "minimum_crowd",
  "brand_match",
  "authenticity",
] as const;
export type VerificationCheckName = (typeof VERIFICATION_CHECKS)[number];

/**
 * A server-made sentence as a stable code and its figures, so a page can say it in the reader's
 * language (messages/<locale>/codes.json); the English `message` / `instruction`
 * stay for integrators. Codes are never renamed: a new wording is a new code.
 */
export interface Localisable {
  code: string;
  params: Record<string, string | number>;
}

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
  /** `message` as a code and figures, where the check has one. */
  code?: string;
  params?: Record<string, string | number>;
  /** `instruction` as codes and figures (one per sentence), where the check has them. */
  instruction_codes?: Localisable[];
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

export const BASE_THRESHOLDS: VerificationThresholds = {
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

/**
 * Angles shot facing one point — the target — so the camera's direction can be checked against
 * the bearing to it. Wide or inward views (interior, overview, outdoor_seating, facilities,
 * parking_lot) have no single direction and are not judged.
 */
export const FACING_ANGLES = [
  "front",
  "entrance",
  "storefront",
  "promotional_display",
  "water_quality_flag",
  "entrance_queue",
] as const satisfies readonly Angle[];
type FacingAngle = (typeof FACING_ANGLES)[number];

const FACING_SUBJECT: Record<FacingAngle, (place: string) => string> = {
  front: (place) => `the front of ${place}`,
  entrance: (place) => `the entrance of ${place}`,
  storefront: (place) => `the shop window of ${place}`,
  promotional_display: (place) => `the promotional display at ${place}`,
  water_quality_flag: (place) => `the water-quality flag at ${place}`,
  entrance_queue: (place) => `the entrance queue at ${place}`,
};

export const isFacing = (angle: Angle): angle is FacingAngle => (FACING_ANGLES as readonly string[]).includes(angle);

// ---------------------------------------------------------------------------------------------
// Helpers

export const round1 = (v: number) => Math.round(v * 10) / 10;
export const round3 = (v: number) => Math.round(v * 1000) / 1000;
export const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** A linear score: 1 at 0, 0.5 at the threshold, 0 at twice the threshold. */
export function linearScore(measured: number, threshold: number): number {
  if (threshold <= 0) return measured <= 0 ? 1 : 0;
  return round3(clamp01(1 - measured / (2 * threshold)));
}

export function notEvaluated(
  check: VerificationCheckName,
  message: string,
  threshold: CheckResult["threshold"] = null,
  extra?: Record<string, unknown>,
  coded?: Localisable,
): CheckResult {
  return {
    check,
    status: "not_evaluated",
    passed: false,
    score: 0,
    value: null,
    threshold,
    message,
    instruction: null,
    ...(extra ? { extra } : {}),
    ...(coded ? { code: coded.code, params: coded.params } : {}),
  };
}

export function judged(
  check: VerificationCheckName,
  passed: boolean,
  fields: {
    score: number;
    value: CheckResult["value"];
    threshold: CheckResult["threshold"];
    message: string;
    instruction: string | null;
    extra?: Record<string, unknown>;
    coded?: { message: Localisable; instructions: Localisable[] };
  },
): CheckResult {
  const { extra, coded, ...rest } = fields;
  const instruction = passed ? null : fields.instruction || null;
  return {
    check,
    status: passed ? "passed" : "failed",
    passed,
    ...rest,
    instruction,
    ...(extra ? { extra } : {}),
    ...(coded ? { code: coded.message.code, params: coded.message.params, ...(instruction ? { instruction_codes: coded.instructions } : {}) } : {}),
  };
}

export const fmt = (v: number) => String(round1(v));

const COMPASS_POINTS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;
/** The nearest of the eight compass points as a code ("NE"). */
export const compassPoint = (bearing: number): string => COMPASS_POINTS[Math.round(normaliseDeg(bearing) / 45) % 8] ?? "N";

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
      coded: {
        message: { code: "location_match.no_gps", params: { place: target.name } },
        instructions: [{ code: "location_match.turn_on_location", params: { place: target.name } }],
      },
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
    message: passed
      ? `Taken ${fmt(metres)} m from ${target.name}, within the ${allowed}.`
      : `Taken ${fmt(metres)} m from ${target.name}, beyond the ${allowed}.`,
    instruction: `Stand within ${fmt(radiusM)} m of ${target.name}: you were ${fmt(metres)} m away.`,
    extra: { distance_m: metres, radius_m: radiusM, accuracy_credit_m: credit },
    coded: {
      message: { code: passed ? "location_match.within" : "location_match.beyond", params: { place: target.name, distance_m: metres, allowed_m: allowance } },
      instructions: [{ code: "location_match.stand_within", params: { place: target.name, radius_m: radiusM, distance_m: metres } }],
    },
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
    return notEvaluated(
      "angle_match",
      `A ${angle.replaceAll("_", " ")} photo does not face one point, so the camera's direction is not checked.`,
      null,
      undefined,
      { code: "angle_match.not_facing", params: { angle } },
    );
  }
  if (!photo)
    return notEvaluated("angle_match", "The photo has no GPS position, so the direction to the target is unknown.", tolerance, undefined, {
      code: "angle_match.no_gps",
      params: {},
    });
  if (photo.directionDeg === null || !Number.isFinite(photo.directionDeg)) {
    return notEvaluated("angle_match", "The photo does not record which way the camera faced (no compass direction in its EXIF).", tolerance, undefined, {
      code: "angle_match.no_direction",
      params: {},
    });
  }
  const distance = distanceM(photo, target);
  if (distance < minDistance) {
    return notEvaluated(
      "angle_match",
      `Taken ${fmt(distance)} m from the target point: too close for the direction to it to mean anything.`,
      tolerance,
      undefined,
      { code: "angle_match.too_close", params: { distance_m: round1(distance) } },
    );
  }

  let heading: number;
  let declination: number | null = null;
  if (photo.directionRef === "magnetic") {
    const when = photo.capturedAt ?? input.fallbackDate ?? null;
    if (!when)
      return notEvaluated("angle_match", "The compass direction is magnetic and the photo has no date to correct it to true north.", tolerance, undefined, {
        code: "angle_match.magnetic_no_date",
        params: {},
      });
    try {
      heading = trueHeading(photo.directionDeg, "magnetic", photo.lat, photo.lng, when);
    } catch (error) {
      return notEvaluated(
        "angle_match",
        `The magnetic compass direction could not be corrected to true north: ${error instanceof Error ? error.message : String(error)}.`,
        tolerance,
        undefined,
        { code: "angle_match.magnetic_uncorrected", params: {} },
      );
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
  const facing =
    declination === null
      ? `${fmt(heading)}°`
      : `${fmt(heading)}° true (compass ${fmt(photo.directionDeg)}° magnetic, declination ${declination > 0 ? "+" : ""}${fmt(declination)}°)`;
  return judged("angle_match", passed, {
    score: linearScore(off, tolerance),
    value: off,
    threshold: tolerance,
    message: `The camera faced ${facing}; ${place} lies at ${fmt(bearing)}°: ${fmt(off)}° off, ${passed ? "within" : "beyond"} the ${fmt(tolerance)}° allowed.`,
    instruction: `Face ${FACING_SUBJECT[angle](place)}, to the ${compassPointName(bearing)} of where you stood: you were pointing ${fmt(off)}° away.`,
    extra: { heading_true_deg: round1(heading), bearing_deg: round1(bearing), declination_deg: declination, distance_m: round1(distance) },
    coded: {
      message: {
        code: passed ? "angle_match.within" : "angle_match.beyond",
        params: { place, heading_deg: round1(heading), bearing_deg: round1(bearing), off_deg: off, allowed_deg: tolerance },
      },
      // The direction as a compass point (N … NW), which the page names in the reader's words.
      instructions: [{ code: "angle_match.face", params: { angle, place, direction: compassPoint(bearing), off_deg: off } }],
    },
  });
}
