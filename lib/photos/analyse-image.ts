// Decodes a photo once (with sharp; a HEIC/HEIF through ./open-image.ts) and derives from that one
// decode: the preview and thumbnail (auto-oriented, no metadata — so no GPS), and the measurements
// QA needs: sharpness, exposure and a perceptual hash.
import sharp from "sharp";
import { ANALYSIS_SIZE, measureGrey } from "./pixel-measures";
import { blurFaces, type FindPeople } from "./blur-faces";
import { openImage } from "./open-image";

// The measures are pure and shared with the field page (lib/photos/pixel-measures.ts).
export { exposure, laplacianVariance } from "./pixel-measures";

export interface ImageMeasurements {
  width: number;
  height: number;
  /** Variance of the Laplacian on a 512 px greyscale rendition: low means blurry. */
  sharpness: number;
  /** Mean luminance 0–255. */
  brightness: number;
  /** Share of pixels crushed to black (≤ 8) and blown to white (≥ 247). */
  shadowsClipped: number;
  highlightsClipped: number;
  /** 64-bit difference hash, hex: near-identical pictures differ in few bits. */
  dhash: string;
}

export interface Derivatives {
  preview: Buffer;
  thumbnail: Buffer;
}

export const PREVIEW_SIZE = 1280;
export const THUMBNAIL_SIZE = 320;

/** Pixel dimensions from the header only — no decoding — for the decompression-bomb check. */
export async function readDimensions(input: string | Buffer): Promise<{ width: number; height: number } | null> {
  try {
    const { width, height } = await sharp(input, { limitInputPixels: false }).metadata();
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}

export async function analyseImage(
  input: string | Buffer,
  { maxPixels, findPeople }: { maxPixels: number; /** When given, faces are blurred in the preview and thumbnail. */ findPeople?: FindPeople },
): Promise<{ measurements: ImageMeasurements; derivatives: Derivatives }> {
  const { open } = await openImage(input, { maxPixels });
  // failOn "error": a truncated-but-readable JPEG still yields pixels; garbage still fails.
  const preview = await open({ failOn: "error", sequentialRead: true })
    .rotate()
    .resize(PREVIEW_SIZE, PREVIEW_SIZE, { fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  // The measurements read the photo as taken; only what people are shown is blurred.
  const shown = findPeople ? (await blurFaces(preview.data, findPeople)).preview : preview.data;
  // Everything else derives from the preview (or the header) and runs at once on libvips' threads.
  const [thumbnail, grey, metadata, dhash] = await Promise.all([
    sharp(shown).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 75 }).toBuffer(),
    sharp(preview.data)
      .resize(ANALYSIS_SIZE, ANALYSIS_SIZE, { fit: "inside", withoutEnlargement: true })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true }),
    open().metadata(),
    differenceHash(preview.data),
  ]);
  const swap = (metadata.orientation ?? 1) >= 5;
  const width = (swap ? metadata.height : metadata.width) ?? preview.info.width;
  const height = (swap ? metadata.width : metadata.height) ?? preview.info.height;
  return {
    measurements: {
      width,
      height,
      ...measureGrey(grey.data, grey.info.width, grey.info.height),
      dhash,
    },
    derivatives: { preview: shown, thumbnail },
  };
}

export async function differenceHash(image: Buffer): Promise<string> {
  const { data } = await sharp(image).greyscale().resize(9, 8, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true });
  let bits = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      bits = (bits << 1n) | ((data[y * 9 + x] ?? 0) > (data[y * 9 + x + 1] ?? 0) ? 1n : 0n);
    }
  }
  return bits.toString(16).padStart(16, "0");
}

export function hammingDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (x > 0n) {
    count += Number(x & 1n);
    x >>= 1n;
  }
  return count;
}
