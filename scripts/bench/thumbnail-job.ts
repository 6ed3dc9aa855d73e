// Benchmark: the QA job's per-image work minus the database (lib/service/qa/run-qa.ts):
// analyseImage (one decode → 1280 px preview + 320 px thumbnail, plus sharpness, exposure and
// dHash) and store.putBuffer of both derivatives — against sharp alone making the same two
// derivatives the most direct way and writing them to disk. Same files, same run.
// A third variant repeats analyseImage's derivative steps without the measurements, so the
// measurements' cost is the difference; a step-by-step pass splits it further.
// Goal (issue): thumbnail job ≥ 0.85 × sharp alone.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { parseEnv } from "@/lib/env";
import { createId } from "@/lib/ids/create-id";
import { analyseImage, exposure, laplacianVariance, PREVIEW_SIZE, THUMBNAIL_SIZE } from "@/lib/photos/analyse-image";
import { LocalObjectStore } from "@/lib/service/storage/local-store";
import { fmt, ms, profileSection, roundsSection } from "./lib/file-report";
import { profilePasses, type InProcessProfile } from "./lib/in-process-profile";
import { describePhotoSet, type PhotoFile, type PhotoSet } from "./lib/photo-set";
import type { Supervisor } from "./lib/processes";
import { measureRounds, type RoundSettings, type RoundsResult, type Variant, type VariantTiming } from "./lib/rounds";
import { StepTimer, stepRows, sumOf, type StepCost } from "./lib/steps";
import { defineBenchmark } from "./lib/benchmark";
import { fileBenchmarksHeader } from "./lib/file-report";

export const GOAL = { minThroughputRatio: 0.85 } as const;
// The QA job passes the service's pixel cap (lib/env.ts default).
const MAX_PIXELS = parseEnv({}).MAX_IMAGE_PIXELS;
// analyse-image.ts's private constant: the greyscale rendition the measurements read.
const ANALYSIS_SIZE = 512;

export interface ThumbnailJobOptions {
  supervisor: Supervisor;
  photos: PhotoSet;
  rounds: RoundSettings;
  profile: boolean;
  resultsDir: string;
}

const DERIVATIVE_STEPS = ["decodeAndPreview", "thumbnail"] as const;
const MEASUREMENT_STEPS = ["greyRendition", "headerMetadata", "exposureLoop", "laplacianLoop", "dHash"] as const;
const STEPS = [...DERIVATIVE_STEPS, ...MEASUREMENT_STEPS, "putBuffers"] as const;
export type JobStep = (typeof STEPS)[number];

const STEP_LABELS: Record<JobStep, string> = {
  decodeAndPreview: "decode + 1280 px preview (q82 mozjpeg)",
  thumbnail: "320 px thumbnail: decodes the preview (q75)",
  greyRendition: "measurement: 512 px greyscale rendition: decodes the preview again",
  headerMetadata: "measurement: header metadata of the original (orientation)",
  exposureLoop: "measurement: exposure loop (JS)",
  laplacianLoop: "measurement: Laplacian variance loop (JS)",
  dHash: "measurement: dHash 9×8: decodes the preview a third time",
  putBuffers: "putBuffer ×2 (mkdir, write .partial, rename)",
};

export interface ThumbnailJobResults {
  benchmark: "thumbnail-job";
  goal: string;
  inputs: string;
  settings: RoundSettings;
  rounds: RoundsResult;
  /** (subject − derivatives-only) per image at the median rounds, and its share of the subject. */
  measurementsCost: { secondsPerImage: number; shareOfSubject: number; cpuSecondsPerImage: number; shareOfSubjectCpu: number };
  /** analyseImage replayed step by step in one extra pass: mean seconds per image, wall and CPU. */
  steps: StepCost<JobStep>[];
  profile?: InProcessProfile;
}

const log = (message: string) => console.error(`[bench] thumbnail-job: ${message}`);

const imageKey = (name: string) => `org_bench/mission_bench/${createId("image")}/${name}.jpg`;

/** The brief's baseline: the two derivatives straight from sharp, written with writeFile. */
async function sharpAlone(file: PhotoFile, prefix: string): Promise<void> {
  const preview = await sharp(file.path)
    .rotate()
    .resize(PREVIEW_SIZE, PREVIEW_SIZE, { fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
  const thumbnail = await sharp(preview).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 75 }).toBuffer();
  writeFileSync(`${prefix}-preview.jpg`, preview);
  writeFileSync(`${prefix}-thumbnail.jpg`, thumbnail);
}

/** run-qa.ts per image, minus the database: analyseImage, then both derivatives into the store. */
async function thumbnailJob(file: PhotoFile, store: LocalObjectStore): Promise<void> {
  const { derivatives } = await analyseImage(file.path, { maxPixels: MAX_PIXELS });
  await store.putBuffer(imageKey("thumbnail"), derivatives.thumbnail);
  await store.putBuffer(imageKey("preview"), derivatives.preview);
}

/** analyseImage's first two steps exactly (same sharp options), nothing measured. */
async function derivativesAsAnalysed(file: PhotoFile): Promise<{ preview: Buffer; thumbnail: Buffer }> {
  const decoded = sharp(file.path, { limitInputPixels: MAX_PIXELS, failOn: "error", sequentialRead: true }).rotate();
  const preview = await decoded
    .clone()
    .resize(PREVIEW_SIZE, PREVIEW_SIZE, { fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
  const thumbnail = await sharp(preview).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 75 }).toBuffer();
  return { preview, thumbnail };
}

async function derivativesOnly(file: PhotoFile, store: LocalObjectStore): Promise<void> {
  const { preview, thumbnail } = await derivativesAsAnalysed(file);
  await store.putBuffer(imageKey("thumbnail"), thumbnail);
  await store.putBuffer(imageKey("preview"), preview);
}

function variants(files: PhotoFile[], root: string): Variant[] {
  const plainDir = join(root, "plain");
  const store = new LocalObjectStore(join(root, "data", "photos"));
  const emptyDir = (dir: string) => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  };
  emptyDir(plainDir);
  const forEachFile = (work: (file: PhotoFile, i: number) => Promise<void>) => async () => {
    for (const [i, file] of files.entries()) await work(file, i);
  };
  return [
    {
      name: "sharp-alone",
      label: "baseline: sharp rotate→1280 q82 mozjpeg, 320 q75 from it, writeFile ×2",
      pass: (pass) => forEachFile((file, i) => sharpAlone(file, join(plainDir, `${pass}-${i}`)))(),
      reset: async () => emptyDir(plainDir),
    },
    {
      name: "thumbnail-job",
      label: "thumbnail job: analyseImage (derivatives + measurements) → putBuffer ×2",
      pass: forEachFile((file) => thumbnailJob(file, store)),
      reset: async () => emptyDir(store.root),
    },
    {
      name: "derivatives-only",
      label: "diagnostic: analyseImage's derivative steps only (no measurements) → putBuffer ×2",
      pass: forEachFile((file) => derivativesOnly(file, store)),
      reset: async () => emptyDir(store.root),
    },
  ];
}

/** analyseImage replayed step by step (its helpers that are exported are called as they are). */
/** Passes timed step by step; the median pass is reported. */
const STEP_PASSES = 3;

async function stepBreakdown(files: PhotoFile[], root: string): Promise<StepCost<JobStep>[]> {
  const store = new LocalObjectStore(join(root, "steps"));
  const timer = new StepTimer<JobStep>();
  for (let pass = 0; pass < STEP_PASSES; pass++) {
    await stepPass(files, store, timer);
    timer.endPass();
    rmSync(store.root, { recursive: true, force: true });
  }
  return timer.perFile(STEPS, files.length);
}

async function stepPass(files: PhotoFile[], store: LocalObjectStore, timer: StepTimer<JobStep>): Promise<void> {
  const timed = <T>(step: JobStep, work: () => Promise<T> | T) => timer.time(step, work);
  for (const file of files) {
    const decoded = sharp(file.path, { limitInputPixels: MAX_PIXELS, failOn: "error", sequentialRead: true }).rotate();
    const preview = await timed("decodeAndPreview", () =>
      decoded.clone().resize(PREVIEW_SIZE, PREVIEW_SIZE, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 82, mozjpeg: true }).toBuffer(),
    );
    const thumbnail = await timed("thumbnail", () =>
      sharp(preview).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 75 }).toBuffer(),
    );
    const grey = await timed("greyRendition", () =>
      sharp(preview).resize(ANALYSIS_SIZE, ANALYSIS_SIZE, { fit: "inside", withoutEnlargement: true }).greyscale().raw().toBuffer({ resolveWithObject: true }),
    );
    await timed("headerMetadata", () => sharp(file.path, { limitInputPixels: MAX_PIXELS }).metadata());
    await timed("exposureLoop", () => exposure(grey.data));
    await timed("laplacianLoop", () => laplacianVariance(grey.data, grey.info.width, grey.info.height));
    // differenceHash is private to analyse-image.ts: the same sharp call.
    await timed("dHash", () => sharp(preview).greyscale().resize(9, 8, { fit: "fill" }).raw().toBuffer());
    await timed("putBuffers", async () => {
      await store.putBuffer(imageKey("thumbnail"), thumbnail);
      await store.putBuffer(imageKey("preview"), preview);
    });
  }
}

function measurementsCost(rounds: RoundsResult): ThumbnailJobResults["measurementsCost"] {
  const timing = (name: string) => rounds.timings.find((t) => t.name === name);
  const images = rounds.work.files * rounds.passesPerRound;
  const cost = (pick: (t: VariantTiming) => number) => {
    const subject = pick(timing("thumbnail-job") ?? EMPTY);
    const difference = subject - pick(timing("derivatives-only") ?? EMPTY);
    return { perImage: Math.round((difference / images) * 1e6) / 1e6, share: subject ? Math.round((difference / subject) * 1000) / 1000 : 0 };
  };
  const wall = cost((t) => t.medianRoundSeconds);
  const cpu = cost((t) => t.medianCpuSeconds);
  return { secondsPerImage: wall.perImage, shareOfSubject: wall.share, cpuSecondsPerImage: cpu.perImage, shareOfSubjectCpu: cpu.share };
}

const EMPTY: VariantTiming = {
  name: "",
  label: "",
  roundSeconds: [],
  medianRoundSeconds: 0,
  cpuRoundSeconds: [],
  medianCpuSeconds: 0,
  mbPerSecond: 0,
  filesPerSecond: 0,
};

export async function runThumbnailJob(options: ThumbnailJobOptions): Promise<ThumbnailJobResults> {
  // libvips' operation cache would serve a decode of a file seen in an earlier pass; the job
  // sees each photo once.
  sharp.cache(false);
  const root = options.supervisor.tempDir("thumbnail-job");
  try {
    const files = options.photos.files;
    const list = variants(files, root);
    const rounds = await measureRounds(list, { bytes: options.photos.totalBytes, files: files.length }, options.rounds, log, {
      min: GOAL.minThroughputRatio,
      on: "thumbnail-job",
    });
    log("step breakdown");
    const steps = await stepBreakdown(files, root);
    const subject = list[1];
    const profile = await profilePasses(options.profile && subject !== undefined, options.resultsDir, "thumbnail-job", rounds.passesPerRound, async (pass) => {
      await subject?.pass(pass);
    });
    return {
      benchmark: "thumbnail-job",
      goal: `thumbnail job throughput ≥ ${GOAL.minThroughputRatio} × sharp alone`,
      inputs: describePhotoSet(options.photos),
      settings: options.rounds,
      rounds,
      measurementsCost: measurementsCost(rounds),
      steps,
      ...(profile ? { profile } : {}),
    };
  } finally {
    options.supervisor.removeTempDir(root);
  }
}

// ---- report ---------------------------------------------------------------------------------

function stepTable(steps: StepCost<JobStep>[]): string[] {
  const cpu = (of: readonly JobStep[]) => sumOf(steps, of, "cpu");
  const share = (cpu(MEASUREMENT_STEPS) / cpu(STEPS)) * 100;
  return [
    `| analyseImage step, replayed one by one (${STEP_PASSES} extra passes, mean per image of the median pass) | wall ms | CPU ms | share of CPU |`,
    "|---|---:|---:|---:|",
    ...stepRows(steps, STEP_LABELS, STEPS),
    `| **total** | ${fmt(sumOf(steps, STEPS, "wall") * 1000, 2)} | ${fmt(cpu(STEPS) * 1000, 2)} | 100% |`,
    `| of which measurements | ${fmt(sumOf(steps, MEASUREMENT_STEPS, "wall") * 1000, 2)} | ${fmt(cpu(MEASUREMENT_STEPS) * 1000, 2)} | ${fmt(share, 1)}% |`,
  ];
}

export function formatThumbnailJob(results: ThumbnailJobResults): string {
  const cost = results.measurementsCost;
  return [
    "### thumbnail-job: analyseImage + putBuffer ×2 vs sharp alone",
    "",
    `Goal (issue): ${results.goal}.`,
    "",
    `Inputs: ${results.inputs}. sharp's operation cache off (a job never sees a photo twice); maxPixels ${fmt(MAX_PIXELS)}; ` +
      "MB/s counts the originals read.",
    "",
    ...roundsSection(results.settings, results.rounds),
    "",
    `Measurements (sharpness, exposure, dHash, orientation header) inside the subject, as thumbnail-job − derivatives-only at the median rounds: ` +
      `${ms(cost.secondsPerImage)} wall per image = ${fmt(cost.shareOfSubject * 100, 1)}% of the subject's wall time; ` +
      `${ms(cost.cpuSecondsPerImage)} CPU per image = ${fmt(cost.shareOfSubjectCpu * 100, 1)}% of its CPU time.`,
    "",
    ...stepTable(results.steps),
    ...profileSection("Profile of the thumbnail-job subject", results.profile),
  ].join("\n");
}

export const benchmark = defineBenchmark({
  name: "thumbnail-job",
  header: fileBenchmarksHeader,
  run: async ({ supervisor, options, resultsDir, photos }) =>
    runThumbnailJob({ supervisor, resultsDir, photos: await photos(), rounds: options.rounds, profile: options.profile }),
  format: formatThumbnailJob,
});
