// Reads the EXIF of a stored photo with exifr and summarises it (./summarise-exif.ts). Broken or
// missing EXIF gives `present: false` or partial fields, never a throw.
import { open } from "node:fs/promises";
import exifr from "exifr";
import { EMPTY_EXIF, EXIF_READ_OPTIONS, summariseExif, type ExifSummary } from "./summarise-exif";

export { EMPTY_EXIF, summariseExif, type ExifGps, type ExifSummary } from "./summarise-exif";

type Raw = Record<string, unknown>;

/** EXIF sits in the APP1 segment near the start; this much covers it even behind a large ICC profile. */
const EXIF_HEAD_BYTES = 1024 * 1024;

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    // Unzeroed and no larger than the file: a fresh zeroed MiB per photo keeps the GC busy.
    const length = Math.min((await handle.stat()).size, EXIF_HEAD_BYTES);
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Parses EXIF from a file path or bytes. Never throws: a broken segment reads as no EXIF. */
export async function readExif(input: string | Uint8Array): Promise<ExifSummary> {
  try {
    // exifr's own chunked file reader misses EXIF that follows other APP segments: give it bytes.
    const source = typeof input === "string" ? await readHead(input) : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    const raw: unknown = await exifr.parse(source, EXIF_READ_OPTIONS);
    return summariseExif(typeof raw === "object" && raw !== null ? (raw as Raw) : null);
  } catch {
    return EMPTY_EXIF;
  }
}
