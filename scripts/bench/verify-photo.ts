// Benchmark: the automated verification of one ordered photo as the orders worker does it
// (lib/service/orders/verify-assignment.ts, minus the database): readExif of the file, then
// photoFactsFromExif and verifyPhoto (lib/service/verification/checks.ts) — location with the
// GPS accuracy credit, angle with the camera's magnetic compass direction corrected to true north
// by the World Magnetic Model, time of day ("daylight") from the sun's position at the place and
// instant, quality from the photo's recorded QA checks; no analyser, as configured by default
// (its checks are recorded as not evaluated). Baseline: readExif alone on the same file. Each
// input is measured on its own, subject and baseline in rotating order over several rounds.
// Goal (issue): verification ≥ 0.5 × readExif alone (ops/s).
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { makePhoto } from "@/lib/demo/make-photo";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { magneticDeclinationDeg } from "@/lib/geo/declination";
import { sunAltitudeDeg, sunriseSunset } from "@/lib/geo/sun";
import { timeZoneAt } from "@/lib/geo/time-zone";
import { analyseImage } from "@/lib/photos/analyse-image";
import { readExif, type ExifSummary } from "@/lib/photos/read-exif";
import type { QaCheck } from "@/lib/schemas/qa";
import { DEFAULT_QA_THRESHOLDS } from "@/lib/schemas/qa";
import { checkImage } from "@/lib/service/qa/checks";
import { CORPUS_DIR, corpusFile } from "@/lib/testing/corpus";
import {
  checkAngle,
  checkLocation,
  checkQuality,
  checkTimeOfDay,
  photoFactsFromExif,
  verifyPhoto,
  type VerifyPhotoInput,
} from "@/lib/service/verification/checks";
import { fmt, formatPerRoundRates, formatPerRoundRatios, profileSection, ratioTable, timingTable } from "./lib/file-report";
import { timePerCall } from "./lib/micro-timing";
import { profileInProcess, type InProcessProfile } from "./lib/in-process-profile";
import type { Supervisor } from "./lib/processes";
import { measureRounds, type RoundSettings, type RoundsResult, type Variant } from "./lib/rounds";
import { defineBenchmark } from "./lib/benchmark";

const run = promisify(execFile);

export const GOAL = { minThroughputRatio: 0.5 } as const;

export interface VerifyPhotoOptions {
  supervisor: Supervisor;
  rounds: RoundSettings;
  profile: boolean;
  resultsDir: string;
}

export function verifyPhotoHeader(options: { rounds: RoundSettings }): string[] {
  const r = options.rounds;
  return [
    `- verify-photo: in the runner process, one photo at a time, readExif + photoFactsFromExif + verifyPhoto vs readExif alone; per input ${r.warmupRounds} warm-up + ${r.rounds} measured rounds per variant, ` +
      `order rotating, ≥ ${r.minRoundSeconds} s per round; inputs: a generated 1600×1200 JPEG (makePhoto, magnetic compass direction) and the corpus's DSCN0010.jpg moved, retimed and given a magnetic direction with exiftool (when corpus and exiftool are present)`,
  ];
}

// ---- inputs ---------------------------------------------------------------------------------

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
async function generatedPhoto(dir: string): Promise<{ path: string; origin: string }> {
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
async function corpusPhoto(dir: string): Promise<{ path: string; origin: string } | { skipped: string }> {
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

async function prepareInput(name: string, path: string, origin: string): Promise<VerifyInput> {
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

// ---- measuring ------------------------------------------------------------------------------

/** The subject: verify-assignment.ts's verification of one photo, EXIF read from the file. */
async function verifyFromFile(input: VerifyInput): Promise<void> {
  const exif = await readExif(input.path);
  const result = await verifyPhoto({ ...input.request, photo: photoFactsFromExif(exif, input.request.timeZone, input.receivedAt) });
  if (result.status !== "approved") throw new Error(`verify-photo: ${input.name} was ${result.status} in a timed pass`);
}

/**
 * Calls per pass. One call takes about a millisecond; the harness sizes its rounds from one
 * warm-up pass, which must therefore be long enough not to be dominated by the first, cold calls.
 */
export const CALLS_PER_PASS = 50;

function variants(input: VerifyInput): Variant[] {
  return [
    {
      name: "read-exif",
      label: "baseline: readExif(path)",
      pass: async () => {
        for (let i = 0; i < CALLS_PER_PASS; i++) {
          const exif = await readExif(input.path);
          if (!exif.gps) throw new Error(`verify-photo: no GPS read from ${input.name}`);
        }
      },
    },
    {
      name: "verify-photo",
      label: "readExif(path) → photoFactsFromExif → verifyPhoto",
      pass: async () => {
        for (let i = 0; i < CALLS_PER_PASS; i++) await verifyFromFile(input);
      },
    },
  ];
}

const STEPS = [
  "readExifFile",
  "readExifBytes",
  "photoFacts",
  "checkLocation",
  "checkAngle",
  "declination",
  "checkTimeOfDay",
  "sunAltitude",
  "sunriseSunset",
  "checkQuality",
  "verifyPhoto",
] as const;
type Step = (typeof STEPS)[number];

const STEP_LABELS: Record<Step, string> = {
  readExifFile: "readExif(path): open, stat, read the head (≤ 1 MiB), close, exifr, summarise",
  readExifBytes: "readExif(bytes already in memory): exifr + summarise only",
  photoFacts: "photoFactsFromExif",
  checkLocation: "checkLocation",
  checkAngle: "checkAngle (magnetic → true: declination included)",
  declination: "of which magneticDeclinationDeg (World Magnetic Model)",
  checkTimeOfDay: "checkTimeOfDay (daylight: sun altitude, sunrise/sunset, local times)",
  sunAltitude: "of which sunAltitudeDeg (the verdict needs only this)",
  sunriseSunset: "of which sunriseSunset (solar noon, sunrise, sunset: for the retake instruction, computed on a pass too)",
  checkQuality: "checkQuality (recorded QA checks)",
  verifyPhoto: "verifyPhoto (all checks, no analyser)",
};

export interface StepMicro {
  step: Step;
  label: string;
  /** Median over STEP_REPEATS timings of the mean µs per call. */
  microseconds: number;
}

const STEP_REPEATS = 3;
const STEP_SECONDS = 0.2;

/** Each step alone in a tight loop (after a short warm-up): µs per call, median of 3 loops. Diagnostic. */
async function stepCosts(input: VerifyInput): Promise<StepMicro[]> {
  const bytes = readFileSync(input.path);
  const facts = photoFactsFromExif(input.exif, input.request.timeZone, input.receivedAt);
  const gps = facts.gps;
  if (!gps || !facts.capturedAt) throw new Error("verify-photo: no facts");
  const { target } = input.request;
  const capturedAt = facts.capturedAt;
  const work: Record<Step, () => unknown> = {
    readExifFile: () => readExif(input.path),
    readExifBytes: () => readExif(bytes),
    photoFacts: () => photoFactsFromExif(input.exif, input.request.timeZone, input.receivedAt),
    checkLocation: () => checkLocation({ photo: { lat: gps.lat, lng: gps.lng, accuracyM: gps.accuracyM }, target, radiusM: 60 }),
    checkAngle: () =>
      checkAngle({ photo: { lat: gps.lat, lng: gps.lng, directionDeg: gps.directionDeg, directionRef: gps.directionRef, capturedAt }, target, angle: "front" }),
    declination: () => magneticDeclinationDeg(gps.lat, gps.lng, capturedAt),
    checkTimeOfDay: () => checkTimeOfDay({ capturedAt, lat: target.lat, lng: target.lng, timeZone: input.request.timeZone, timeOfDay: "daylight" }),
    sunAltitude: () => sunAltitudeDeg(capturedAt, target.lat, target.lng),
    sunriseSunset: () => sunriseSunset(capturedAt, target.lat, target.lng),
    checkQuality: () => checkQuality(input.request.qaChecks),
    verifyPhoto: () => verifyPhoto({ ...input.request, photo: facts }),
  };
  const out: StepMicro[] = [];
  for (const step of STEPS) out.push({ step, label: STEP_LABELS[step], microseconds: await timePerCall(work[step], STEP_SECONDS, STEP_REPEATS) });
  return out;
}

// ---- the run --------------------------------------------------------------------------------

export interface InputResult {
  name: string;
  origin: string;
  bytes: number;
  outcome: VerifyInput["outcome"];
  rounds: RoundsResult;
  steps: StepMicro[];
}

export interface VerifyPhotoResults {
  benchmark: "verify-photo";
  goal: string;
  settings: RoundSettings;
  inputs: InputResult[];
  skipped: string[];
  profile?: InProcessProfile;
}

const log = (message: string) => console.error(`[bench] verify-photo: ${message}`);

export async function runVerifyPhoto(options: VerifyPhotoOptions): Promise<VerifyPhotoResults> {
  const dir = options.supervisor.tempDir("verify-photo");
  try {
    const prepared: VerifyInput[] = [];
    const skipped: string[] = [];
    const generated = await generatedPhoto(dir);
    prepared.push(await prepareInput("generated", generated.path, generated.origin));
    const corpus = await corpusPhoto(dir);
    if ("skipped" in corpus) skipped.push(`DSCN0010.jpg: ${corpus.skipped}`);
    else prepared.push(await prepareInput("DSCN0010", corpus.path, corpus.origin));

    const inputs: InputResult[] = [];
    for (const input of prepared) {
      log(`${input.name}: ${input.outcome.facts}`);
      const rounds = await measureRounds(
        variants(input),
        { bytes: input.bytes * CALLS_PER_PASS, files: CALLS_PER_PASS },
        options.rounds,
        (m) => log(`${input.name}: ${m}`),
        { min: GOAL.minThroughputRatio },
      );
      log(`${input.name}: step costs`);
      const steps = await stepCosts(input);
      inputs.push({ name: input.name, origin: input.origin, bytes: input.bytes, outcome: input.outcome, rounds, steps });
    }
    const first = prepared[0];
    const profile =
      options.profile && first
        ? await profileInProcess(options.resultsDir, "verify-photo", async () => {
            const until = performance.now() + 2000;
            while (performance.now() < until) await verifyFromFile(first);
          })
        : undefined;
    return {
      benchmark: "verify-photo",
      goal: `verification of one photo (readExif + photoFactsFromExif + verifyPhoto) ≥ ${GOAL.minThroughputRatio} × readExif alone, ops/s`,
      settings: options.rounds,
      inputs,
      skipped,
      ...(profile ? { profile } : {}),
    };
  } finally {
    options.supervisor.removeTempDir(dir);
  }
}

// ---- report ---------------------------------------------------------------------------------

function inputSection(input: InputResult): string[] {
  const r = input.rounds;
  const checks = Object.entries(input.outcome.checks)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  return [
    `#### ${input.name}: ${input.origin}, ${fmt(input.bytes / 1000)} kB`,
    "",
    `Verdict (checked before timing): ${input.outcome.status}; ${checks}; declination ${String(input.outcome.declinationDeg)}°; ${input.outcome.facts}.`,
    "",
    `${fmt(r.passesPerRound * r.work.files)} calls per round and variant; ops/s per round — subject: ${formatPerRoundRates(r, "verify-photo")}; baseline: ${formatPerRoundRates(r, "read-exif")}; ratio per round: ${formatPerRoundRatios(r, "verify-photo", "read-exif")}. ` +
      `1-min load average after each round: ${r.loadAverage1m.map((l) => fmt(l, 2)).join(", ")}.`,
    "",
    ...timingTable(r).map((line) => line.replace("files/s", "ops/s")),
    "",
    ...ratioTable([...r.ratios, ...r.cpuRatios]),
    "",
    "| step, alone in a loop (diagnostic; median of 3 × 0.2 s) | µs per call |",
    "|---|---:|",
    ...input.steps.map((s) => `| ${s.label} | ${fmt(s.microseconds, 1)} |`),
  ];
}

export function formatVerifyPhoto(results: VerifyPhotoResults): string {
  const s = results.settings;
  return [
    "### verify-photo: readExif + photoFactsFromExif + verifyPhoto vs readExif alone",
    "",
    `Goal (issue): ${results.goal}.`,
    "",
    `Method: in this process, one photo per call; per input, ${s.warmupRounds} warm-up round(s) discarded, then ${s.rounds} measured rounds per variant, the order rotating each round, ` +
      `a round repeating the call until the faster variant's round takes ≥ ${s.minRoundSeconds} s, a full GC before each timed round; ratio = median of the per-round ratios (min–max). ` +
      "The order location: cultural_exterior, angle front, 30 m north of the camera, time_of_day daylight, zone from timeZoneAt; no analyser (obstruction not evaluated, as without ANALYSER_URL). " +
      "QA checks: checkImage on the file's own measurements, computed once (the verification reads them as recorded).",
    ...(results.skipped.length ? ["", `Skipped: ${results.skipped.join("; ")}.`] : []),
    "",
    ...results.inputs.flatMap((input) => [...inputSection(input), ""]),
    ...profileSection("Profile of the verify-photo subject (generated input, 2 s)", results.profile),
  ].join("\n");
}

export const benchmark = defineBenchmark({
  name: "verify-photo",
  header: verifyPhotoHeader,
  run: ({ supervisor, options, resultsDir }) => runVerifyPhoto({ supervisor, resultsDir, rounds: options.rounds, profile: options.profile }),
  format: formatVerifyPhoto,
});
