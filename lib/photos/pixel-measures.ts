/**
 * Pixel measures of one image, the same on the server and the phone: sharpness as the variance of
 * the Laplacian, exposure as mean luminance, on a greyscale rendition at most 512 px a side. Pure —
 * no sharp, no node modules — so the service's QA (lib/photos/analyse-image.ts, on pixels sharp
 * decoded) and the field page's checks before sending (on a downscaled copy the browser decoded)
 * measure a photo with the very same functions; lib/verification/image-quality.ts judges them.
 */

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
