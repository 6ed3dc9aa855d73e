/**
 * The QA verdicts on one image that do not need the server: sharpness, exposure and the mission
 * area, each a recorded QA check with a sentence a zoomer can act on. Pure — no sharp, no node
 * modules — so the service's QA (lib/service/qa) and the field page's checks before sending judge
 * a photo's measures (lib/photos/pixel-measures.ts) with the very same functions.
 */
import { signedDistanceFromPolygonM } from "@/lib/geo/distance-from-polygon";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import type { QaCheck, QaThresholds } from "@/lib/schemas/qa";

const round1 = (v: number) => Math.round(v * 10) / 10;

type Thresholds = Pick<QaThresholds, "min_sharpness" | "min_brightness" | "max_brightness" | "location_tolerance_m" | "max_accuracy_m">;

/** A recorded QA check; `code` ("qa.…") and `params` say `message` for a page in the reader's language (messages/<locale>/codes.json). */
export const qaVerdict = (
  check: QaCheck["check"],
  passed: boolean,
  value: QaCheck["value"],
  threshold: QaCheck["threshold"],
  message: string,
  code: string,
  params: Record<string, string | number> = {},
): QaCheck => ({
  check,
  passed,
  value,
  threshold,
  message,
  code,
  params,
});
const verdict = qaVerdict;

export function judgeSharpness(sharpness: number, thresholds: Pick<Thresholds, "min_sharpness">): QaCheck {
  const min = thresholds.min_sharpness;
  return sharpness >= min
    ? verdict("sharpness", true, sharpness, min, "The photo is sharp.", "qa.sharp")
    : verdict("sharpness", false, sharpness, min, `Sharpness ${sharpness} is below ${min}: the photo is blurry.`, "qa.blurry", { value: sharpness, min });
}

export function judgeExposure(brightness: number, thresholds: Pick<Thresholds, "min_brightness" | "max_brightness">): QaCheck {
  const range = `${thresholds.min_brightness}–${thresholds.max_brightness}`;
  if (brightness < thresholds.min_brightness)
    return verdict(
      "exposure",
      false,
      brightness,
      range,
      `Mean brightness ${brightness} is below ${thresholds.min_brightness}: the photo is too dark.`,
      "qa.too_dark",
      { value: brightness, min: thresholds.min_brightness },
    );
  if (brightness > thresholds.max_brightness)
    return verdict(
      "exposure",
      false,
      brightness,
      range,
      `Mean brightness ${brightness} is above ${thresholds.max_brightness}: the photo is overexposed.`,
      "qa.overexposed",
      { value: brightness, max: thresholds.max_brightness },
    );
  return verdict("exposure", true, brightness, range, "The exposure is fine.", "qa.exposure_fine");
}

/**
 * Inside the mission area, or outside it by no more than the tolerance plus the fix's reported
 * accuracy (capped); null position: not known where it was taken.
 */
export function judgeInsideBounds(
  bounds: PolygonGeometry,
  position: { lat: number; lng: number; accuracy_m: number | null } | null,
  thresholds: Pick<Thresholds, "location_tolerance_m" | "max_accuracy_m">,
): QaCheck {
  if (!position)
    return verdict(
      "inside_bounds",
      false,
      null,
      thresholds.location_tolerance_m,
      "Cannot tell where the photo was taken: no GPS position.",
      "qa.bounds_no_gps",
    );
  const outside = signedDistanceFromPolygonM(bounds, position.lng, position.lat);
  const allowance = round1(thresholds.location_tolerance_m + Math.min(position.accuracy_m ?? 0, thresholds.max_accuracy_m));
  const metres = Math.max(0, round1(outside));
  return outside <= allowance
    ? verdict(
        "inside_bounds",
        true,
        metres,
        allowance,
        outside <= 0 ? "Taken inside the mission area." : `Taken ${metres} m outside the mission area, within the ${allowance} m allowed.`,
        outside <= 0 ? "qa.bounds_inside" : "qa.bounds_within",
        { distance_m: metres, allowed_m: allowance },
      )
    : verdict("inside_bounds", false, metres, allowance, `Taken ${metres} m outside the mission area (${allowance} m allowed).`, "qa.bounds_outside", {
        distance_m: metres,
        allowed_m: allowance,
      });
}
