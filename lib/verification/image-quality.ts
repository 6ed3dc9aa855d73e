/**
 * The QA rules of one image that do not need the server: its measures (sharpness as the variance
 * of the Laplacian, exposure as mean luminance, on a greyscale rendition at most 512 px a side),
 * the default thresholds, and the verdicts on sharpness, exposure and the mission area. Pure — no
 * sharp, no zod, no node modules — so the service's QA (lib/service/qa, on pixels sharp decoded)
 * and the field page's checks before sending (on a downscaled copy the browser decoded) measure
 * and judge a photo with the very same functions.
 */
import { signedDistanceFromPolygonM } from "@/lib/geo/distance-from-polygon";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import type { QaCheck, QaThresholds } from "@/lib/schemas/qa";

export const DEFAULT_QA_THRESHOLDS: QaThresholds = {
  min_short_edge_px: 480,
  min_sharpness: 40,
  min_brightness: 35,
  max_brightness: 225,
  location_tolerance_m: 25,
  max_accuracy_m: 100,
  capture_time_tolerance_s: 900,
  max_clock_skew_s: 300,
  duplicate_max_distance: 4,
};

/** The longest side of the greyscale rendition sharpness and exposure are measured on, pixels. */
export const ANALYSIS_SIZE = 512;

const round1 = (v: number) => Math.round(v * 10) / 10;
const round3 = (v: number) => Math.round(v * 1000) / 1000;

// ---------------------------------------------------------------------------------------------
// Measures

export interface ExposureMeasure {
  /** Mean luminance 0–255. */
  brightness: number;
  /** Share of pixels crushed to black (≤ 8) and blown to white (≥ 247). */
  shadowsClipped: number;
  highlightsClipped: number;
}

/** Variance of the Laplacian (4-neighbour) of a greyscale image, one byte a pixel: low means blurry. */
export function laplacianVariance(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumSquares = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const value = (pixels[i - width] ?? 0) + (pixels[i + width] ?? 0) + (pixels[i - 1] ?? 0) + (pixels[i + 1] ?? 0) - 4 * (pixels[i] ?? 0);
      sum += value;
      sumSquares += value * value;
      n++;
    }
  }
  const mean = sum / n;
  return round1(sumSquares / n - mean * mean);
}

export function exposure(pixels: Uint8Array | Uint8ClampedArray): ExposureMeasure {
  let total = 0;
  let dark = 0;
  let bright = 0;
  for (const p of pixels) {
    total += p;
    if (p <= 8) dark++;
    if (p >= 247) bright++;
  }
  const n = Math.max(1, pixels.length);
  return { brightness: round1(total / n), shadowsClipped: round3(dark / n), highlightsClipped: round3(bright / n) };
}

// sRGB byte → linear light, and back: the greyscale conversion libvips (sharp's greyscale) makes.
const TO_LINEAR = Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const toSrgbByte = (linear: number) => {
  const c = linear <= 0.0031308 ? 12.92 * linear : 1.055 * linear ** (1 / 2.4) - 0.055;
  return Math.max(0, Math.min(255, Math.round(c * 255)));
};

/**
 * RGBA pixels (a canvas's ImageData) as one luminance byte a pixel, the way sharp's greyscale
 * makes them: Rec. 709 weights on linear light, encoded back to sRGB.
 */
export function greyFromRgba(rgba: Uint8Array | Uint8ClampedArray): Uint8Array {
  const grey = new Uint8Array(rgba.length >> 2);
  for (let i = 0, j = 0; j < grey.length; i += 4, j++) {
    const y = 0.2126 * (TO_LINEAR[rgba[i] ?? 0] ?? 0) + 0.7152 * (TO_LINEAR[rgba[i + 1] ?? 0] ?? 0) + 0.0722 * (TO_LINEAR[rgba[i + 2] ?? 0] ?? 0);
    grey[j] = toSrgbByte(y);
  }
  return grey;
}

/** The size a picture is measured at: inside ANALYSIS_SIZE × ANALYSIS_SIZE, never enlarged. */
export function analysisSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, ANALYSIS_SIZE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Sharpness and exposure of a greyscale rendition (the service's and the phone's common measure). */
export function measureGrey(grey: Uint8Array | Uint8ClampedArray, width: number, height: number): ExposureMeasure & { sharpness: number } {
  return { ...exposure(grey), sharpness: laplacianVariance(grey, width, height) };
}

// ---------------------------------------------------------------------------------------------
// Verdicts (each a recorded QA check with a sentence a zoomer can act on)

type Thresholds = Pick<QaThresholds, "min_sharpness" | "min_brightness" | "max_brightness" | "location_tolerance_m" | "max_accuracy_m">;

/** A recorded QA check; `code` ("qa.…") and `params` say `message` for a page in the reader's language (messages/<locale>/codes.json). */
export const qaVerdict = (check: QaCheck["check"], passed: boolean, value: QaCheck["value"], threshold: QaCheck["threshold"], message: string, code: string, params: Record<string, string | number> = {}): QaCheck => ({
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
  if (brightness < thresholds.min_brightness) return verdict("exposure", false, brightness, range, `Mean brightness ${brightness} is below ${thresholds.min_brightness}: the photo is too dark.`, "qa.too_dark", { value: brightness, min: thresholds.min_brightness });
  if (brightness > thresholds.max_brightness) return verdict("exposure", false, brightness, range, `Mean brightness ${brightness} is above ${thresholds.max_brightness}: the photo is overexposed.`, "qa.overexposed", { value: brightness, max: thresholds.max_brightness });
  return verdict("exposure", true, brightness, range, "The exposure is fine.", "qa.exposure_fine");
}

/**
 * Inside the mission area, or outside it by no more than the tolerance plus the fix's reported
 * accuracy (capped); null position: not known where it was taken.
 */
export function judgeInsideBounds(bounds: PolygonGeometry, position: { lat: number; lng: number; accuracy_m: number | null } | null, thresholds: Pick<Thresholds, "location_tolerance_m" | "max_accuracy_m">): QaCheck {
  if (!position) return verdict("inside_bounds", false, null, thresholds.location_tolerance_m, "Cannot tell where the photo was taken: no GPS position.", "qa.bounds_no_gps");
  const outside = signedDistanceFromPolygonM(bounds, position.lng, position.lat);
  const allowance = round1(thresholds.location_tolerance_m + Math.min(position.accuracy_m ?? 0, thresholds.max_accuracy_m));
  const metres = Math.max(0, round1(outside));
  return outside <= allowance
    ? verdict("inside_bounds", true, metres, allowance, outside <= 0 ? "Taken inside the mission area." : `Taken ${metres} m outside the mission area, within the ${allowance} m allowed.`, outside <= 0 ? "qa.bounds_inside" : "qa.bounds_within", { distance_m: metres, allowed_m: allowance })
    : verdict("inside_bounds", false, metres, allowance, `Taken ${metres} m outside the mission area (${allowance} m allowed).`, "qa.bounds_outside", { distance_m: metres, allowed_m: allowance });
}
