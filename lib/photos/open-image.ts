// Opens a photo for sharp whatever its type: a JPEG (or anything libvips reads) is handed to
// sharp as it is; a HEIC/HEIF — which sharp's prebuilt libvips cannot decode — is checked for its
// size from the header (ispe), then decoded once by ./decode-heif.ts (a worker thread) and given
// to sharp as raw, already upright pixels. Decoded on demand rather than kept as a stored JPEG
// copy: the original stays the only full-size object (no second copy to delete, export or
// retain), and the decode happens only in background jobs (QA, order verification, blurred copy).
import { open, readFile } from "node:fs/promises";
import sharp, { type Sharp, type SharpOptions } from "sharp";
import { decodeHeif, HeifTooLargeError } from "./decode-heif";
import { readHeifHeader } from "./heif-header";
import { SNIFF_BYTES, sniffImageType } from "./sniff-image-type";

export { HeifTooLargeError } from "./decode-heif";

/** A fresh sharp pipeline on the photo's pixels for each call (pipelines are single-use). */
export type OpenImage = (options?: Pick<SharpOptions, "failOn" | "sequentialRead">) => Sharp;

async function head(input: string | Buffer): Promise<Uint8Array> {
  if (typeof input !== "string") return input.subarray(0, SNIFF_BYTES);
  const handle = await open(input, "r");
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Whether the photo is a HEIC/HEIF (by its magic bytes). */
export async function isHeif(input: string | Buffer): Promise<boolean> {
  return sniffImageType(await head(input)).kind === "heif";
}

/**
 * The photo ready for sharp. `upright` says whether its pixels are already turned (a decoded
 * HEIF) — `.rotate()` is then a no-op, as there is no EXIF orientation on raw pixels.
 * A HEIF larger than `maxPixels` by its header is refused (HeifTooLargeError) before decoding.
 */
export async function openImage(input: string | Buffer, { maxPixels }: { maxPixels: number }): Promise<{ open: OpenImage; upright: boolean }> {
  if (!(await isHeif(input))) {
    return { open: (options = {}) => sharp(input, { limitInputPixels: maxPixels, ...options }), upright: false };
  }
  const bytes = typeof input === "string" ? await readFile(input) : input;
  const header = readHeifHeader(bytes);
  if (header && header.width * header.height > maxPixels) throw new HeifTooLargeError(header.width, header.height);
  const { width, height, data } = await decodeHeif(bytes, { maxPixels });
  return {
    open: () => sharp(data, { raw: { width, height, channels: 4 }, limitInputPixels: maxPixels }).removeAlpha(),
    upright: true,
  };
}

/**
 * A JPEG of the photo for consumers that take JPEG (the analysers, the blurred copy): a JPEG is
 * returned as it is; a HEIF is decoded and encoded at full size (upright, no metadata: no GPS).
 */
export async function jpegOf(input: Buffer, { maxPixels, quality = 92 }: { maxPixels: number; quality?: number }): Promise<Buffer> {
  if (!(await isHeif(input))) return input;
  const { open: image } = await openImage(input, { maxPixels });
  return image().jpeg({ quality }).toBuffer();
}
