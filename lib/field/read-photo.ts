// What the phone reads from a photo before it is sent, for the checks before sending: its EXIF
// (with exifr and the service's own summary, lib/photos/summarise-exif), its SHA-256 (Web Crypto)
// and its sharpness and exposure, measured on a copy the browser decodes and scales down to the
// size the service measures at, with the service's own measures (lib/photos/pixel-measures.ts).
// The decoder is injected: the page decodes with createImageBitmap and a canvas; tests decode the
// same files with sharp, so both paths are run on real photos.
import exifr from "exifr";
import { EMPTY_EXIF, EXIF_READ_OPTIONS, summariseExif, type ExifSummary } from "@/lib/photos/summarise-exif";
import { analysisSize, greyFromRgba, measureGrey } from "@/lib/photos/pixel-measures";
import { readPhotoFormat, type PhotoFormat } from "./photo-format";

export interface PhotoQuality {
  width: number;
  height: number;
  sharpness: number;
  brightness: number;
}

export interface PhotoReading {
  /** By its first bytes: whether it can be sent at all (JPEG, HEIC/HEIF). */
  format: PhotoFormat;
  sha256: string;
  exif: ExifSummary;
  /** null when this browser could not decode the photo (the server still will try). */
  quality: PhotoQuality | null;
}

/** RGBA pixels of the photo scaled to `size(naturalWidth, naturalHeight)`, upright; null if it cannot be decoded. */
export type DecodeScaled = (
  photo: Blob,
  size: (width: number, height: number) => { width: number; height: number },
) => Promise<{ rgba: Uint8Array | Uint8ClampedArray; width: number; height: number; naturalWidth: number; naturalHeight: number } | null>;

export async function sha256Hex(photo: Blob): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await photo.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function readExifOf(photo: Blob): Promise<ExifSummary> {
  try {
    const raw: unknown = await exifr.parse(await photo.arrayBuffer(), EXIF_READ_OPTIONS);
    return summariseExif(typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : null);
  } catch {
    return EMPTY_EXIF;
  }
}

export async function measureQuality(photo: Blob, decode: DecodeScaled): Promise<PhotoQuality | null> {
  const scaled = await decode(photo, analysisSize).catch(() => null);
  if (!scaled) return null;
  const { sharpness, brightness } = measureGrey(greyFromRgba(scaled.rgba), scaled.width, scaled.height);
  return { width: scaled.naturalWidth, height: scaled.naturalHeight, sharpness, brightness };
}

/** The browser's decoder: upright (EXIF orientation applied), drawn at the measuring size on a canvas. */
export const decodeInBrowser: DecodeScaled = async (photo, size) => {
  const bitmap = await createImageBitmap(photo, { imageOrientation: "from-image" });
  try {
    const { width, height } = size(bitmap.width, bitmap.height);
    const canvas =
      typeof OffscreenCanvas === "function" ? new OffscreenCanvas(width, height) : Object.assign(document.createElement("canvas"), { width, height });
    const context = canvas.getContext("2d") as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
    if (!context) return null;
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, width, height);
    return { rgba: context.getImageData(0, 0, width, height).data, width, height, naturalWidth: bitmap.width, naturalHeight: bitmap.height };
  } finally {
    bitmap.close();
  }
};

export async function readPhoto(photo: Blob, { decode = decodeInBrowser }: { decode?: DecodeScaled } = {}): Promise<PhotoReading> {
  const [format, sha256, exif, quality] = await Promise.all([readPhotoFormat(photo), sha256Hex(photo), readExifOf(photo), measureQuality(photo, decode)]);
  return { format, sha256, exif, quality };
}
