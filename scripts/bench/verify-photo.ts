// Benchmark: the automated verification of one ordered photo as the orders worker does it
// (lib/service/orders/verify-assignment.ts, minus the database): readExif of the file, then
// photoFactsFromExif and verifyPhoto (lib/service/verification/checks.ts) — location with the
// GPS accuracy credit, angle with the camera's magnetic compass direction corrected to true north
// by the World Magnetic Model, time of day ("daylight") from the sun's position at the place and
// instant, quality from the photo's recorded QA checks; no analyser, as configured by default
// (its checks are recorded as not evaluated). Baseline: readExif alone on the same file. Each
// input is measured on its own, subject and baseline in rotating order over several rounds.
// Goal (issue): verification ≥ 0.5 × readExif alone (ops/s).
import { readFileSync } from "node:fs";
import { magneticDeclinationDeg } from "@/lib/geo/declination";
import { sunAltitudeDeg, sunriseSunset } from "@/lib/geo/sun";
import { readExif } from "@/lib/photos/read-exif";
import { checkAngle, checkLocation, checkQuality, checkTimeOfDay, photoFactsFromExif, verifyPhoto } from "@/lib/service/verification/checks";
import { fmt, formatPerRoundRates, formatPerRoundRatios, profileSection, ratioTable, timingTable } from "./lib/file-report";
import { timePerCall } from "./lib/micro-timing";
import { profileInProcess, type InProcessProfile } from "./lib/in-process-profile";
import type { Supervisor } from "./lib/processes";
import { measureRounds, type RoundSettings, type RoundsResult, type Variant } from "./lib/rounds";
import { defineBenchmark } from "./lib/benchmark";
import { corpusPhoto, generatedPhoto, prepareInput, type VerifyInput } from "./lib/verify-fixture";

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
