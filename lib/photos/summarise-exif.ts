// The EXIF a partner cares about (where, when, which device, which way), normalised from exifr's
// raw tags. Pure (no file access, no Buffer), so the service (./read-exif.ts) and the field page
// (reading the photo in the browser before it is sent) summarise the same tags the same way.
import { toStorableText } from "@/lib/text/storable-text";

export interface ExifGps {
  lat: number;
  lng: number;
  altitude_m: number | null;
  /** Horizontal positioning error (GPSHPositioningError), metres. */
  accuracy_m: number | null;
  /** Compass direction the camera faced (GPSImgDirection), degrees from north. */
  direction_deg: number | null;
  direction_ref: "true" | "magnetic" | null;
}

export interface ExifSummary {
  present: boolean;
  make: string | null;
  model: string | null;
  orientation: number | null;
  /** Capture time in UTC (ISO 8601), or null when the file does not say. */
  captured_at: string | null;
  /** The camera's local time as written (ISO 8601 without offset). */
  captured_at_local: string | null;
  /** The UTC offset of the local time (OffsetTimeOriginal), e.g. "+02:00", when known. */
  utc_offset: string | null;
  /** How captured_at was derived: from the offset tag, from the GPS clock, or local time read as UTC. */
  captured_at_source: "offset" | "gps" | "assumed_utc" | null;
  gps: ExifGps | null;
  width: number | null;
  height: number | null;
  software: string | null;
  lens_model: string | null;
}

export const EMPTY_EXIF: ExifSummary = {
  present: false,
  make: null,
  model: null,
  orientation: null,
  captured_at: null,
  captured_at_local: null,
  utc_offset: null,
  captured_at_source: null,
  gps: null,
  width: null,
  height: null,
  software: null,
  lens_model: null,
};

/** What exifr should read: the tags summariseExif uses, raw (no revived dates or translated values). */
export const EXIF_READ_OPTIONS = {
  tiff: true,
  exif: true,
  gps: true,
  ifd1: false,
  interop: false,
  makerNote: false,
  userComment: false,
  xmp: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  reviveValues: false,
  translateValues: false,
  translateKeys: true,
  mergeOutput: true,
  silentErrors: true,
};

type Raw = Record<string, unknown>;

// EXIF strings are NUL-padded and may hold anything a file's author wrote: cleaned to text
// PostgreSQL can store (lib/text/storable-text), never refused.
const str = (v: unknown): string | null => {
  const text = typeof v === "string" ? toStorableText(v).trim() : "";
  return text === "" ? null : text;
};
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function dms(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value) && value.length >= 1) {
    const [d = 0, m = 0, s = 0] = value.map(Number);
    const result = d + m / 60 + s / 3600;
    return Number.isFinite(result) ? result : null;
  }
  return null;
}

function readGps(raw: Raw): ExifGps | null {
  const lat = dms(raw.GPSLatitude);
  const lng = dms(raw.GPSLongitude);
  if (lat === null || lng === null) return null;
  const signedLat = str(raw.GPSLatitudeRef)?.toUpperCase() === "S" ? -lat : lat;
  const signedLng = str(raw.GPSLongitudeRef)?.toUpperCase() === "W" ? -lng : lng;
  if (Math.abs(signedLat) > 90 || Math.abs(signedLng) > 180 || (signedLat === 0 && signedLng === 0)) return null;
  const altitude = num(raw.GPSAltitude);
  const belowSeaLevel = raw.GPSAltitudeRef === 1 || (raw.GPSAltitudeRef instanceof Uint8Array && raw.GPSAltitudeRef[0] === 1);
  const directionRef = str(raw.GPSImgDirectionRef)?.toUpperCase();
  return {
    lat: round(signedLat, 7),
    lng: round(signedLng, 7),
    altitude_m: altitude === null ? null : round(belowSeaLevel ? -altitude : altitude, 2),
    accuracy_m: num(raw.GPSHPositioningError),
    direction_deg: num(raw.GPSImgDirection),
    direction_ref: directionRef === "T" ? "true" : directionRef === "M" ? "magnetic" : null,
  };
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** "2008:10:22 16:29:49" → "2008-10-22T16:29:49", or null when it is not a real date. */
function exifDateTime(value: unknown): string | null {
  const s = str(value);
  const m = s ? /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(s) : null;
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
  return Number.isNaN(Date.parse(`${iso}Z`)) || m[1] === "0000" ? null : iso;
}

function gpsUtc(raw: Raw): string | null {
  const date = str(raw.GPSDateStamp);
  const time = raw.GPSTimeStamp;
  const d = date ? /^(\d{4}):(\d{2}):(\d{2})$/.exec(date) : null;
  if (!d || !Array.isArray(time) || time.length < 3) return null;
  const [h = 0, mi = 0, s = 0] = time.map(Number);
  const ms = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), h, mi, 0) + s * 1000;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

function captureTime(raw: Raw): Pick<ExifSummary, "captured_at" | "captured_at_local" | "utc_offset" | "captured_at_source"> {
  const local = exifDateTime(raw.DateTimeOriginal) ?? exifDateTime(raw.CreateDate) ?? exifDateTime(raw.ModifyDate);
  const offsetText = str(raw.OffsetTimeOriginal) ?? str(raw.OffsetTime);
  const offset = offsetText && /^[+-]\d{2}:\d{2}$/.test(offsetText) ? offsetText : null;
  if (local && offset) {
    return { captured_at: new Date(`${local}${offset}`).toISOString(), captured_at_local: local, utc_offset: offset, captured_at_source: "offset" };
  }
  const fromGps = gpsUtc(raw);
  if (fromGps && local) {
    // The GPS clock is UTC: local − GPS gives the offset, if it is a real one (within ±14 h, on a
    // quarter hour). Some cameras write a wrong GPS date; then the local time is kept as is.
    const minutes = (Date.parse(`${local}Z`) - Date.parse(fromGps)) / 60_000;
    const rounded = Math.round(minutes / 15) * 15;
    if (Math.abs(rounded) <= 14 * 60 && Math.abs(minutes - rounded) <= 5) {
      const utcOffset = formatOffset(rounded);
      return { captured_at: new Date(`${local}${utcOffset}`).toISOString(), captured_at_local: local, utc_offset: utcOffset, captured_at_source: "gps" };
    }
  } else if (fromGps) {
    return { captured_at: fromGps, captured_at_local: null, utc_offset: null, captured_at_source: "gps" };
  }
  if (local) return { captured_at: new Date(`${local}Z`).toISOString(), captured_at_local: local, utc_offset: null, captured_at_source: "assumed_utc" };
  return { captured_at: null, captured_at_local: null, utc_offset: null, captured_at_source: null };
}

export function summariseExif(raw: Raw | undefined | null): ExifSummary {
  if (!raw || Object.keys(raw).length === 0) return EMPTY_EXIF;
  const orientation = num(raw.Orientation);
  return {
    present: true,
    make: str(raw.Make),
    model: str(raw.Model),
    orientation: orientation !== null && orientation >= 1 && orientation <= 8 ? orientation : null,
    ...captureTime(raw),
    gps: readGps(raw),
    width: num(raw.ExifImageWidth) ?? num(raw.ImageWidth),
    height: num(raw.ExifImageHeight) ?? num(raw.ImageHeight),
    software: str(raw.Software),
    lens_model: str(raw.LensModel),
  };
}
