// The inputs of verify-photo: an ordered photo and the order location it was taken for, as
// lib/service/orders/verify-assignment.ts passes them — a generated JPEG with a magnetic compass
// direction, and the corpus's DSCN0010.jpg moved next to the target and retimed with exiftool —,
// each checked once to be verified in full, so that what the benchmark times is never an early exit.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { makePhoto } from "@/lib/demo/make-photo";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { timeZoneAt } from "@/lib/geo/time-zone";
import { analyseImage } from "@/lib/photos/analyse-image";
import { readExif, type ExifSummary } from "@/lib/photos/read-exif";
import type { QaCheck } from "@/lib/schemas/qa";
import { DEFAULT_QA_THRESHOLDS } from "@/lib/schemas/qa";
import { checkImage } from "@/lib/service/qa/checks";
import { CORPUS_DIR, corpusFile } from "@/lib/testing/corpus";
import { photoFactsFromExif, verifyPhoto, type VerifyPhotoInput } from "@/lib/service/verification/checks";

const run = promisify(execFile);

/** One photo and the order location it was taken for: what verify-assignment.ts passes. */
export interface VerifyInput {
  name: string;
  path: string;
  bytes: number;
  /** How the file was made, for the report. */
  origin: string;
  exif: ExifSummary;
  /** Everything verifyPhoto gets except `photo` (which comes from the EXIF in the timed work). */
  request: Omit<VerifyPhotoInput, "photo">;
  receivedAt: Date;
  /** The subject's outcome on this input, checked once before timing. */
  outcome: { status: string; checks: Record<string, string>; declinationDeg: unknown; facts: string };
}

// Florence, Piazza della Signoria: the camera stands 30 m south of the ordered point.
const CAMERA = { lat: 43.7696, lng: 11.2558 };
const METRES_PER_DEGREE_LAT = 111_320;
/** A compass reading of 357° magnetic: about 1° true in Florence in 2026 (declination ≈ +4°), facing the target due north. */
const MAGNETIC_DIRECTION = 357;

const northOf = (p: { lat: number; lng: number }, metres: number) => ({ lat: p.lat + metres / METRES_PER_DEGREE_LAT, lng: p.lng });

/** A square of `metres` around a point, as an order mission's bounds. */
function squareAround(p: { lat: number; lng: number }, metres: number): PolygonGeometry {
  const dLat = metres / METRES_PER_DEGREE_LAT;
  const dLng = metres / (METRES_PER_DEGREE_LAT * Math.cos((p.lat * Math.PI) / 180));
  return {
    type: "Polygon",
    coordinates: [
      [
        [p.lng - dLng, p.lat - dLat],
        [p.lng + dLng, p.lat - dLat],
        [p.lng + dLng, p.lat + dLat],
        [p.lng - dLng, p.lat + dLat],
        [p.lng - dLng, p.lat - dLat],
      ],
    ],
  };
}

/** makePhoto writes a true direction (Ref T); a phone without a true-north fix writes M: set it, keeping the rest. */
export async function generatedPhoto(dir: string): Promise<{ path: string; origin: string }> {
  const capturedAt = new Date("2026-05-12T08:30:00Z"); // 10:30 in Florence (CEST)
  const made = await makePhoto({
    ...CAMERA,
    directionDeg: MAGNETIC_DIRECTION,
    capturedAt,
    accuracyM: 6,
    altitudeM: 52,
    utcOffsetMinutes: 120,
    width: 1600,
    height: 1200,
    seed: 4242,
  });
  const bytes = await sharp(made)
    .withExifMerge({ IFD3: { GPSImgDirectionRef: "M" } })
    .jpeg({ quality: 85 })
    .toBuffer();
  const path = join(dir, "generated-1600x1200.jpg");
  writeFileSync(path, bytes);
  return {
    path,
    origin: "makePhoto 1600×1200 (Pixel 8 EXIF: GPS with accuracy, 357° magnetic, capture time +02:00), re-encoded by sharp with GPSImgDirectionRef=M",
  };
}

/**
 * The real camera file, as the API test uses it: moved next to the target and retimed with exiftool
 * (its 2008 date predates every shipped magnetic model), given a magnetic direction; no UTC offset,
 * as the camera wrote none, so its local time is read in the location's zone.
 */
export async function corpusPhoto(dir: string): Promise<{ path: string; origin: string } | { skipped: string }> {
  const source = corpusFile("jpg/gps/DSCN0010.jpg");
  if (!existsSync(source)) return { skipped: `corpus not found at ${CORPUS_DIR}` };
  const path = join(dir, "DSCN0010.jpg");
  copyFileSync(source, path);
  try {
    await run("exiftool", [
      "-overwrite_original",
      `-GPSLatitude=${CAMERA.lat}`,
      "-GPSLatitudeRef=N",
      `-GPSLongitude=${CAMERA.lng}`,
      "-GPSLongitudeRef=E",
      `-GPSImgDirection=${MAGNETIC_DIRECTION}`,
      "-GPSImgDirectionRef=M",
      "-DateTimeOriginal=2026:05:12 16:28:39",
      path,
    ]);
  } catch (error) {
    return { skipped: `exiftool failed or is missing (${error instanceof Error ? error.message.split("\n")[0] : String(error)})` };
  }
  return {
    path,
    origin:
      "corpus DSCN0010.jpg (Nikon COOLPIX P6000, 640×480) with exiftool: GPS moved to Florence, 357° magnetic, DateTimeOriginal 2026-05-12 16:28:39 (no offset)",
  };
}

export async function prepareInput(name: string, path: string, origin: string): Promise<VerifyInput> {
  const exif = await readExif(path);
  const timeZone = timeZoneAt(CAMERA.lat, CAMERA.lng);
  const target = { ...northOf(CAMERA, 30), name: "Palazzo Vecchio" };
  const receivedAt = new Date(Date.parse(exif.captured_at ?? "2026-05-12T12:00:00Z") + 10 * 60_000);
  // The photo's QA checks as the QA job records them (measured once, not timed): "given QA checks".
  const { measurements } = await analyseImage(path, { maxPixels: 100_000_000 });
  const qaChecks: QaCheck[] = checkImage(
    { decodeError: null, measurements, exif, duplicate: null },
    { bounds: squareAround(target, 60), createdAt: new Date(receivedAt.getTime() - 60 * 60_000) },
    DEFAULT_QA_THRESHOLDS,
    receivedAt,
  );
  const request: VerifyInput["request"] = {
    target,
    category: "cultural_exterior",
    angle: "front",
    timeZone,
    requirements: { timeOfDay: "daylight" },
    qaChecks,
    image: null,
    analyser: null,
  };
  const facts = photoFactsFromExif(exif, timeZone, receivedAt);
  const result = await verifyPhoto({ ...request, photo: facts });
  const outcome = {
    status: result.status,
    checks: Object.fromEntries(Object.entries(result.ai_checks).map(([k, c]) => [k, c.status])),
    declinationDeg: result.ai_checks.angle_match.extra?.declination_deg ?? null,
    facts: `captured ${facts.capturedAt?.toISOString() ?? "?"} (EXIF source ${exif.captured_at_source ?? "none"}), direction ${exif.gps?.direction_deg ?? "?"}° ${exif.gps?.direction_ref ?? "?"}, accuracy ${exif.gps?.accuracy_m ?? "none"} m, ${qaChecks.filter((c) => c.passed).length}/${qaChecks.length} QA checks passed`,
  };
  // What is timed must be the full verification, not an early exit.
  if (
    result.status !== "approved" ||
    result.ai_checks.angle_match.status !== "passed" ||
    outcome.declinationDeg === null ||
    result.ai_checks.time_of_day.status !== "passed"
  ) {
    throw new Error(`verify-photo: ${name} is not verified in full (angle with declination, time of day): ${JSON.stringify(outcome)}`);
  }
  return { name, path, bytes: statSync(path).size, origin, exif, request, receivedAt, outcome };
}
