/**
 * A photo's facts as verification reads them from its EXIF: where (GPS, accuracy, compass
 * direction) and when it was taken. Pure, so the service (lib/service/verification/checks.ts,
 * which re-exports it) and the field page's checks before sending read a photo the same way.
 */
import type { DirectionRef } from "@/lib/geo/declination";
import { zonedTimeToUtc } from "@/lib/geo/time-zone";
import type { ExifSummary } from "@/lib/photos/summarise-exif";

/** What verification needs to know about a photo. */
export interface PhotoFacts {
  gps: { lat: number; lng: number; accuracyM: number | null; directionDeg: number | null; directionRef: DirectionRef | null } | null;
  capturedAt: Date | null;
  /** When the photo arrived: dates the magnetic correction when the photo has no capture time. */
  receivedAt?: Date;
}

/**
 * The photo's EXIF as verification facts. A capture time written without a UTC offset is read in
 * the location's zone — cameras keep local time, and a photo that passes is taken there — rather
 * than as UTC, which would shift it by the zone's offset and could flip the time-of-day verdict.
 */
export function photoFactsFromExif(exif: ExifSummary, timeZone: string, receivedAt?: Date): PhotoFacts {
  const gps = exif.gps
    ? { lat: exif.gps.lat, lng: exif.gps.lng, accuracyM: exif.gps.accuracy_m, directionDeg: exif.gps.direction_deg, directionRef: exif.gps.direction_ref }
    : null;
  let capturedAt: Date | null = exif.captured_at ? new Date(exif.captured_at) : null;
  if (exif.captured_at_source === "assumed_utc" && exif.captured_at_local) {
    const [date = "", time = ""] = exif.captured_at_local.split("T");
    try {
      const minute = zonedTimeToUtc(date, time.slice(0, 5), timeZone);
      capturedAt = new Date(minute.getTime() + Number(time.slice(6, 8) || 0) * 1000);
    } catch {
      // Keep the UTC reading: a malformed local time is no better a guess.
    }
  }
  if (capturedAt && !Number.isFinite(capturedAt.getTime())) capturedAt = null;
  return { gps, capturedAt, ...(receivedAt ? { receivedAt } : {}) };
}
