// HEIC test photos made at test time, never committed: a JPEG (a real camera file of the corpus,
// or one from lib/demo/make-photo.ts) given an iPhone's EXIF with exiftool, then encoded to HEIC
// (HEVC in a HEIF container, as an iPhone writes it) by `heif-enc` from Debian's libheif-examples
// (libheif 1.15 with x265; .ci/run installs it), which carries the JPEG's EXIF over as the HEIC's
// Exif item. No HEIC encoder is on the npm registry without a download at install (the libheif
// wasm builds there decode only), and no iPhone sample with a known licence ships in a package.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const HEIF_ENC_MISSING = "heif-enc not found: install Debian's libheif-examples (apt-get install libheif-examples), as .ci/run does";

/** The tags an iPhone writes that the service reads besides what the JPEG already has. */
export interface IphoneExif {
  make?: string;
  model?: string;
  /** Overrides of the JPEG's own: GPS place, capture time (local, with its offset), compass direction. */
  lat?: number;
  lng?: number;
  directionDeg?: number;
  capturedAt?: Date;
}

function exifArgs(exif: IphoneExif): string[] {
  const args = [`-Make=${exif.make ?? "Apple"}`, `-Model=${exif.model ?? "iPhone 15 Pro"}`, "-Software=17.5.1"];
  if (exif.lat !== undefined && exif.lng !== undefined) {
    args.push(
      `-GPSLatitude=${Math.abs(exif.lat)}`,
      `-GPSLatitudeRef=${exif.lat >= 0 ? "N" : "S"}`,
      `-GPSLongitude=${Math.abs(exif.lng)}`,
      `-GPSLongitudeRef=${exif.lng >= 0 ? "E" : "W"}`,
      "-GPSHPositioningError=5",
    );
  }
  if (exif.directionDeg !== undefined) args.push(`-GPSImgDirection=${exif.directionDeg}`, "-GPSImgDirectionRef=T");
  if (exif.capturedAt) {
    const utc = exif.capturedAt.toISOString();
    const local = `${utc.slice(0, 10).replaceAll("-", ":")} ${utc.slice(11, 19)}`;
    args.push(`-DateTimeOriginal=${local}`, `-CreateDate=${local}`, "-OffsetTimeOriginal=+00:00", "-OffsetTime=+00:00");
  }
  return args;
}

/**
 * The JPEG as an iPhone-like HEIC (quality 60, as small as a phone's), its EXIF given an iPhone's
 * tags unless `exif` is null (then carried over untouched). Throws with HEIF_ENC_MISSING when the
 * encoder is absent.
 */
export async function heicFromJpeg(jpeg: Buffer, exif: IphoneExif | null = {}): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), "heic-fixture-"));
  try {
    const input = join(dir, "in.jpg");
    const output = join(dir, "out.heic");
    await writeFile(input, jpeg);
    if (exif) await run("exiftool", ["-q", "-overwrite_original", ...exifArgs(exif), input]);
    try {
      await run("heif-enc", ["-q", "60", "-o", output, input]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new Error(HEIF_ENC_MISSING);
      throw error;
    }
    return await readFile(output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The HEIC with every `ispe` (image spatial extents) property claiming `width`×`height`: a
 * decompression bomb's header on a small file. Only the header lies; the coded image is untouched.
 */
export function withClaimedSize(heic: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(heic);
  let at = out.indexOf("ispe", 0, "latin1");
  if (at < 0) throw new Error("no ispe box in this HEIC");
  while (at >= 0) {
    // [size]["ispe"][version+flags][width][height]
    out.writeUInt32BE(width, at + 8);
    out.writeUInt32BE(height, at + 12);
    at = out.indexOf("ispe", at + 4, "latin1");
  }
  return out;
}
