// What a photo file says about having been edited after the camera wrote it: the writer software
// named in its metadata, a last-modified time before the capture time, a GPS clock far from the
// camera clock, maker notes missing where the claimed camera always writes them, and an embedded
// thumbnail that shows a different picture from the main image. Facts only; the authenticity
// check (lib/service/verification/authenticity.ts) judges them against its thresholds.
//
// What exiftool itself leaves behind was measured (exiftool 12.57 on the corpus' Nikon file): a
// plain `-GPSLatitude=… -GPSLongitude=…` adds no tag — no Software, no XMP — it only rewrites the
// values and re-lays out the EXIF block. Retiming the file (`-DateTimeOriginal=…`) is what leaves
// traces: the untouched ModifyDate and GPS date stamp then disagree with the new capture time.
// exiftool does name itself when it writes XMP (x:xmptk "Image::ExifTool …"), which is caught.
import exifr from "exifr";
import sharp from "sharp";
import { differenceHash, hammingDistance } from "./analyse-image";
import { matchEditSoftware } from "./edit-software";
import { readHeifExifTiff } from "./read-exif";
import { sniffImageType } from "./sniff-image-type";

export interface EditTraces {
  /** The editing program the metadata names (Software, XMP CreatorTool / toolkit / history), or null. */
  editor: string | null;
  /** Seconds by which the file's last-modified time (ModifyDate) precedes its capture time; null when not before. */
  modified_before_capture_s: number | null;
  /** Hours between the GPS receiver's clock (GPSDateStamp + GPSTimeStamp, UTC) and the capture time; null without both. */
  gps_clock_offset_h: number | null;
  /** The claimed camera make always writes maker notes, and this file has none. */
  maker_notes_missing: boolean;
  /** Bits (of 64) between the difference hashes of the embedded thumbnail and the main image; null without a thumbnail. */
  thumbnail_distance: number | null;
}

export const NO_TRACES: EditTraces = {
  editor: null,
  modified_before_capture_s: null,
  gps_clock_offset_h: null,
  maker_notes_missing: false,
  thumbnail_distance: null,
};

/**
 * Makes whose cameras and phones write maker notes into every photo (Apple since iOS 7). A file
 * claiming one of them without maker notes has been re-saved by something else. Google, Samsung
 * and others are left out: some of their phones write none.
 */
const MAKER_NOTE_MAKES = [/^canon/i, /^nikon/i, /^sony/i, /^fujifilm/i, /^olympus/i, /^om digital/i, /^panasonic/i, /^pentax|^ricoh/i, /^apple/i];

type Raw = Record<string, unknown>;

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/** "2008:10:22 16:28:39" read as UTC (both times compared are read the same way). */
function exifTime(v: unknown): number | null {
  const s = text(v);
  const m = s?.match(/^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/);
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isFinite(t) ? t : null;
}

function offsetMinutes(v: unknown): number | null {
  const m = text(v)?.match(/^([+-])(\d{2}):(\d{2})$/);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : null;
}

function gpsTime(raw: Raw): number | null {
  const date = text(raw.GPSDateStamp)?.match(/^(\d{4}):(\d{2}):(\d{2})/);
  const time = raw.GPSTimeStamp;
  if (!date || !Array.isArray(time) || time.length < 3) return null;
  const [h, m, s] = time.map(Number);
  if (![h, m, s].every((n) => Number.isFinite(n))) return null;
  return Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])) + ((h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0)) * 1000;
}

/** The XMP toolkit that last wrote the packet (x:xmptk, an attribute exifr does not return). */
function xmpToolkit(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 256 * 1024).toString("latin1");
  return head.match(/x:xmptk=["']([^"']{1,200})["']/)?.[1] ?? null;
}

function findEditor(raw: Raw, bytes: Buffer): string | null {
  const history = Array.isArray(raw.History) ? raw.History : raw.History ? [raw.History] : [];
  const named = [
    raw.Software,
    raw.CreatorTool,
    xmpToolkit(bytes),
    raw.ProcessingSoftware,
    ...history.map((h) => (h && typeof h === "object" ? (h as Raw).softwareAgent : h)),
  ];
  for (const value of named) {
    const s = text(value);
    if (!s) continue;
    const editor = matchEditSoftware(s);
    if (editor) return `${editor.name} (“${s.slice(0, 80)}”)`;
  }
  return null;
}

async function thumbnailDistance(bytes: Buffer, thumbnail: Uint8Array | undefined): Promise<number | null> {
  if (!thumbnail || thumbnail.length < 100) return null;
  try {
    // Both unrotated: the embedded thumbnail is stored as the sensor saw it, like the main image.
    const [main, thumb] = await Promise.all([
      differenceHash(await sharp(bytes, { failOn: "none" }).resize(256, 256, { fit: "fill" }).toBuffer()),
      differenceHash(Buffer.from(thumbnail)),
    ]);
    return hammingDistance(main, thumb);
  } catch {
    return null; // an undecodable thumbnail is no evidence either way
  }
}

/** Reads the edit traces of a photo file. Unreadable metadata gives no traces, never a throw. */
export async function readEditTraces(bytes: Buffer): Promise<EditTraces> {
  // A HEIC's tags are in its Exif item: exifr is given that TIFF block (its own HEIC path misses
  // libheif's layout). The XMP toolkit is still looked for in the whole file.
  const tags = sniffImageType(bytes).kind === "heif" ? ((await readHeifExifTiff(bytes)) ?? bytes) : bytes;
  let raw: Raw | undefined;
  try {
    raw = (await exifr.parse(tags, {
      tiff: true,
      exif: true,
      gps: true,
      xmp: true,
      ifd1: true,
      makerNote: true,
      interop: false,
      mergeOutput: true,
      reviveValues: false,
      translateValues: false,
    })) as Raw | undefined;
  } catch {
    raw = undefined;
  }
  if (!raw) return NO_TRACES;
  let thumbnail: Uint8Array | undefined;
  try {
    thumbnail = await exifr.thumbnail(tags);
  } catch {
    thumbnail = undefined;
  }

  const captured = exifTime(raw.DateTimeOriginal ?? raw.CreateDate);
  const modified = exifTime(raw.ModifyDate);
  const offset = offsetMinutes(raw.OffsetTimeOriginal ?? raw.OffsetTime);
  const gps = gpsTime(raw);
  const make = text(raw.Make);
  return {
    editor: findEditor(raw, bytes),
    modified_before_capture_s: captured !== null && modified !== null && modified < captured ? Math.round((captured - modified) / 1000) : null,
    // Without the camera's UTC offset, its local time is read as UTC: up to 14 h of the gap is the zone.
    gps_clock_offset_h: captured !== null && gps !== null ? Math.round((Math.abs(captured - (offset ?? 0) * 60_000 - gps) / 3_600_000) * 10) / 10 : null,
    maker_notes_missing: make !== null && MAKER_NOTE_MAKES.some((m) => m.test(make)) && raw.makerNote === undefined && raw.MakerNote === undefined,
    thumbnail_distance: await thumbnailDistance(bytes, thumbnail),
  };
}
