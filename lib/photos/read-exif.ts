// Reads the EXIF of a stored photo with exifr and summarises it (./summarise-exif.ts). Broken or
// missing EXIF gives `present: false` or partial fields, never a throw. A HEIC's Exif item is found
// with ./heif-header.ts (it may sit anywhere in the file, often after the image) and its TIFF block
// handed to exifr.
import { open, type FileHandle } from "node:fs/promises";
import exifr from "exifr";
import { HEIF_HEADER_BYTES, readHeifHeader, tiffFromExifItem, type HeifHeader } from "./heif-header";
import { sniffImageType } from "./sniff-image-type";
import { EMPTY_EXIF, EXIF_READ_OPTIONS, summariseExif, type ExifSummary } from "./summarise-exif";

export { EMPTY_EXIF, summariseExif, type ExifGps, type ExifSummary } from "./summarise-exif";

type Raw = Record<string, unknown>;

/** EXIF sits in the APP1 segment near the start; this much covers it even behind a large ICC profile (and a HEIF's meta box). */
const EXIF_HEAD_BYTES = Math.max(1024 * 1024, HEIF_HEADER_BYTES);

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    return await readAt(handle, 0, bytes);
  } finally {
    await handle.close();
  }
}

async function readAt(handle: FileHandle, position: number, wanted: number): Promise<Buffer> {
  // Unzeroed and no larger than the file: a fresh zeroed MiB per photo keeps the GC busy.
  const length = Math.max(0, Math.min((await handle.stat()).size - position, wanted));
  const buffer = Buffer.allocUnsafe(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** A HEIC's Exif is an item of its own: the bytes exifr is given are its TIFF block. */
const MAX_HEIF_EXIF_BYTES = 4 * 1024 * 1024;

/** A HEIC/HEIF's Exif TIFF block (file path, or the whole file's bytes), null when it has none. */
export async function readHeifExifTiff(input: string | Buffer): Promise<Buffer | null> {
  try {
    return await heifTiff(input, typeof input === "string" ? await readHead(input, HEIF_HEADER_BYTES) : input);
  } catch {
    return null;
  }
}

async function heifTiff(input: string | Buffer, head: Buffer): Promise<Buffer | null> {
  return exifItemTiff(readHeifHeader(head)?.exif ?? null, typeof input === "string" ? head : input, typeof input === "string" ? input : null);
}

/**
 * The TIFF block of a HEIF's Exif item at `extent`: from `bytes` when the item lies in them, else
 * only the item's bytes from the file at `path` (one open and read). Null when there is none.
 */
async function exifItemTiff(extent: HeifHeader["exif"], bytes: Uint8Array, path: string | null): Promise<Buffer | null> {
  if (!extent || extent.length > MAX_HEIF_EXIF_BYTES) return null;
  let item: Uint8Array;
  if (extent.offset + extent.length <= bytes.length || path === null) item = bytes.subarray(extent.offset, extent.offset + extent.length);
  else {
    const handle = await open(path, "r");
    try {
      item = await readAt(handle, extent.offset, extent.length);
    } finally {
      await handle.close();
    }
  }
  const tiff = tiffFromExifItem(item);
  return tiff ? Buffer.from(tiff.buffer, tiff.byteOffset, tiff.byteLength) : null;
}

/**
 * A HEIC/HEIF's EXIF when its header has been read already (the intake keeps the upload's first
 * bytes and reads the header from them): the Exif item from `head` when it lies there, else only
 * the item's bytes from the file at `path` — not the file's first MiB and its header again, as
 * `readExif(path)` does. Never throws.
 */
export async function readHeifExif(extent: HeifHeader["exif"], head: Uint8Array, path: string): Promise<ExifSummary> {
  try {
    const tiff = await exifItemTiff(extent, head, path);
    return tiff ? await summariseExifOf(tiff) : EMPTY_EXIF;
  } catch {
    return EMPTY_EXIF;
  }
}

async function summariseExifOf(source: Buffer): Promise<ExifSummary> {
  const raw: unknown = await exifr.parse(source, EXIF_READ_OPTIONS);
  return summariseExif(typeof raw === "object" && raw !== null ? (raw as Raw) : null);
}

/** Parses EXIF from a file path or bytes (JPEG or HEIC/HEIF). Never throws: a broken segment reads as no EXIF. */
export async function readExif(input: string | Uint8Array): Promise<ExifSummary> {
  try {
    // exifr's own chunked file reader misses EXIF that follows other APP segments: give it bytes.
    let source = typeof input === "string" ? await readHead(input, EXIF_HEAD_BYTES) : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    if (sniffImageType(source).kind === "heif") {
      const tiff = await heifTiff(typeof input === "string" ? input : source, source);
      if (!tiff) return EMPTY_EXIF;
      source = tiff;
    }
    return await summariseExifOf(source);
  } catch {
    return EMPTY_EXIF;
  }
}
