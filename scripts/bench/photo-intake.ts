// Benchmark: photo intake after the upload is streamed — the HTTP handler's own steps for each
// file (lib/service/submissions/receive-submission.ts): parseUpload of a real multipart body
// (streams the part to a temp file through the SHA-256 tap, keeping the head bytes), then
// checkFile's sniff, header dimensions and EXIF, then LocalObjectStore.putFile — everything
// except the database transaction. Baseline: the least a multipart intake can do with the same
// request — busboy parses it, the photo part streams through SHA-256 into a file. Same files, same
// run. A plain read → SHA-256 → write of the files (no multipart) is measured beside them as a
// diagnostic.
// Goal (issue, re-based): intake throughput ≥ 0.8 × multipart parse → hash → write.
// A HEIC case (issue 32) runs as rounds of its own: the generated photos encoded to HEIC by
// heif-enc (Debian's libheif-examples; skipped with a note when absent), intake (its header read
// for the pixel cap, EXIF from its Exif item) vs the same multipart baseline on those files.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync, openAsBlob, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import sharp from "sharp";
import { parseEnv } from "@/lib/env";
import { createId } from "@/lib/ids/create-id";
import { photoFileExtension } from "@/lib/photos/photo-types";
import { heicFromJpeg } from "@/lib/testing/heic-fixture";
import { readDimensions } from "@/lib/photos/analyse-image";
import { readExif } from "@/lib/photos/read-exif";
import { readJpegHeader } from "@/lib/photos/jpeg-header-length";
import { sniffImageType } from "@/lib/photos/sniff-image-type";
import { LocalObjectStore } from "@/lib/service/storage/local-store";
import { parseUpload, removeTempFiles, type UploadLimits } from "@/lib/service/submissions/parse-upload";
import { checkFile, storeUpload } from "@/lib/service/submissions/receive-submission";
import { fmt, profileSection, roundsSection } from "./lib/file-report";
import { profilePasses, type InProcessProfile } from "./lib/in-process-profile";
import { describePhotoSet, type PhotoFile, type PhotoSet } from "./lib/photo-set";
import type { Supervisor } from "./lib/processes";
import { measureRounds, type RoundSettings, type RoundsResult, type Variant } from "./lib/rounds";
import { StepTimer, stepRows, sumOf, type StepCost } from "./lib/steps";
import { defineBenchmark } from "./lib/benchmark";
import { fileBenchmarksHeader } from "./lib/file-report";

export const GOAL = { minThroughputRatio: 0.8 } as const;

export interface PhotoIntakeOptions {
  supervisor: Supervisor;
  photos: PhotoSet;
  rounds: RoundSettings;
  profile: boolean;
  resultsDir: string;
}

const INTAKE_STEPS = ["parseUpload", "sniff", "readDimensions", "readExif", "putFile"] as const;
// Timed apart, not part of the intake: the client side of the upload alone, and the baseline.
const STEPS = ["uploadStreamOnly", ...INTAKE_STEPS, "plain"] as const;
export type IntakeStep = (typeof STEPS)[number];

const STEP_LABELS: Record<IntakeStep, string> = {
  uploadStreamOnly: "(client side, measured alone) producing the multipart stream: undici FormData encoder over the file Blob, drained",
  parseUpload: "parseUpload: multipart → temp file with SHA-256 tap and head (includes producing the stream)",
  sniff: "sniffImageType on the head bytes",
  readDimensions: "dimensions: the SOF segment of the kept head when the header fits and the frame is plain, else sharp's header read",
  readExif: "readExif: exifr (on the header's bytes in the kept head when the header fits, else a 1 MiB read of the temp file)",
  putFile: "storeUpload: the image's directory, rename (size and mode known from parsing)",
  plain: "(baseline) read → SHA-256 → write",
};

export interface PhotoIntakeResults {
  benchmark: "photo-intake";
  goal: string;
  inputs: string;
  settings: RoundSettings;
  rounds: RoundsResult;
  /** Extra passes timed step by step: mean seconds per file, wall and CPU. */
  steps: StepCost<IntakeStep>[];
  /** plain / (intake − upload stream) at the median rounds, wall and CPU: the service's side alone. */
  serviceSide: { wall: number; cpu: number };
  /** The HEIC case: intake vs the multipart baseline on HEIC copies of the generated photos; a note when it could not run. */
  heic: { inputs: string; rounds: RoundsResult } | { note: string };
  profile?: InProcessProfile;
}

const log = (message: string) => console.error(`[bench] photo-intake: ${message}`);

// The service's own defaults (lib/env.ts) and the limits receiveSubmission passes to parseUpload.
const DEFAULTS = parseEnv({});
const MAX_NOTE = 2000;
const LIMITS: UploadLimits = {
  maxFileBytes: DEFAULTS.MAX_UPLOAD_BYTES,
  maxFiles: DEFAULTS.MAX_PHOTOS_PER_SUBMISSION,
  fileField: "photos",
  allowedFields: ["angle", "note"],
  maxFieldBytes: MAX_NOTE * 4,
};

interface IntakeDirs {
  /** dataDir/tmp, where parseUpload streams to (same filesystem as the store: putFile renames). */
  uploadTmp: string;
  store: LocalObjectStore;
  baselineOut: string;
}

function makeDirs(root: string): IntakeDirs {
  const dirs = { uploadTmp: join(root, "data", "tmp"), store: new LocalObjectStore(join(root, "data", "photos")), baselineOut: join(root, "plain") };
  mkdirSync(dirs.uploadTmp, { recursive: true });
  mkdirSync(dirs.baselineOut, { recursive: true });
  return dirs;
}

/** The request a phone sends: one photo part plus an angle, the file read lazily from disk. */
async function uploadRequest(file: PhotoFile): Promise<Request> {
  const form = new FormData();
  form.append("photos", await openAsBlob(file.path, { type: "image/jpeg" }), file.name);
  form.append("angle", "front");
  return new Request("http://127.0.0.1/api/v1/missions/bench/submissions", { method: "POST", body: form });
}

async function intakeOne(file: PhotoFile, dirs: IntakeDirs): Promise<void> {
  const request = await uploadRequest(file);
  const upload = await parseUpload(request.body, request.headers.get("content-type") ?? undefined, dirs.uploadTmp, LIMITS);
  try {
    const checked = [];
    for (const part of upload.files) checked.push(await checkFile(part, DEFAULTS.MAX_IMAGE_PIXELS));
    // The key layout of receiveSubmission: org/mission/image/original.<jpg|heic>, a fresh image id each time.
    for (const part of checked)
      await storeUpload(dirs.store, `org_bench/mission_bench/${createId("image")}/original.${photoFileExtension(part.contentType)}`, part, part.contentType);
  } finally {
    await removeTempFiles(upload.files);
  }
}

/** The baseline: the same request parsed by busboy, the photo part hashed and written, nothing else. */
async function multipartOne(file: PhotoFile, target: string): Promise<string> {
  const request = await uploadRequest(file);
  const parser = busboy({ headers: { "content-type": request.headers.get("content-type") ?? "" } });
  const written: Promise<string>[] = [];
  parser.on("file", (_field, stream) => {
    const hash = createHash("sha256");
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    written.push(pipeline(stream, tap, createWriteStream(target)).then(() => hash.digest("hex")));
  });
  if (!request.body) throw new Error("no body");
  await pipeline(Readable.fromWeb(request.body as WebReadableStream<Uint8Array>), parser);
  const [sha256] = await Promise.all(written);
  return sha256 ?? "";
}

async function plainOne(file: PhotoFile, target: string): Promise<string> {
  const hash = createHash("sha256");
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  await pipeline(createReadStream(file.path), tap, createWriteStream(target));
  return hash.digest("hex");
}

function variants(files: PhotoFile[], dirs: IntakeDirs): Variant[] {
  const emptyDir = (dir: string) => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  };
  return [
    {
      name: "multipart",
      label: "baseline: multipart parse (busboy) → SHA-256 → write, the same request",
      pass: async (pass) => {
        for (const [i, file] of files.entries()) await multipartOne(file, join(dirs.baselineOut, `m${pass}-${i}.jpg`));
      },
      reset: async () => emptyDir(dirs.baselineOut),
    },
    {
      name: "plain",
      label: "diagnostic: read → SHA-256 → write of the file (no multipart)",
      pass: async (pass) => {
        for (const [i, file] of files.entries()) await plainOne(file, join(dirs.baselineOut, `${pass}-${i}.jpg`));
      },
      reset: async () => emptyDir(dirs.baselineOut),
    },
    {
      name: "intake",
      label: "intake: parseUpload (hash, head) → sniff → dimensions → EXIF → putFile",
      pass: async () => {
        for (const file of files) await intakeOne(file, dirs);
      },
      reset: async () => emptyDir(dirs.store.root),
    },
    {
      // The part of the subject that is the client's, not the service's: lets the report say
      // what the service's own steps cost (intake − this).
      name: "upload-stream",
      label: "diagnostic: the upload stream alone (undici FormData encoder over the file Blob, drained)",
      pass: async () => {
        for (const file of files) await drain((await uploadRequest(file)).body);
      },
    },
  ];
}

/** plain / (intake − upload stream), at the median rounds: the service's own steps vs the baseline. */
function serviceSideRatio(rounds: RoundsResult, pick: "medianRoundSeconds" | "medianCpuSeconds"): number {
  const of = (name: string) => rounds.timings.find((t) => t.name === name)?.[pick] ?? 0;
  const service = of("intake") - of("upload-stream");
  return service > 0 ? Math.round((of("plain") / service) * 1000) / 1000 : 0;
}

async function drain(body: ReadableStream<Uint8Array> | null): Promise<void> {
  const reader = body?.getReader();
  if (!reader) return;
  while (!(await reader.read()).done);
}

/** Passes timed step by step; the median pass is reported. */
const STEP_PASSES = 5;

/** Step by step, to say where the subject's time goes. */
async function stepBreakdown(files: PhotoFile[], dirs: IntakeDirs): Promise<StepCost<IntakeStep>[]> {
  const timer = new StepTimer<IntakeStep>();
  for (let pass = 0; pass < STEP_PASSES; pass++) {
    await stepPass(files, dirs, timer);
    timer.endPass();
  }
  return timer.perFile(STEPS, files.length);
}

async function stepPass(files: PhotoFile[], dirs: IntakeDirs, timer: StepTimer<IntakeStep>): Promise<void> {
  for (const [i, file] of files.entries()) {
    await timer.time("uploadStreamOnly", async () => drain((await uploadRequest(file)).body));
    const request = await uploadRequest(file);
    const upload = await timer.time("parseUpload", () => parseUpload(request.body, request.headers.get("content-type") ?? undefined, dirs.uploadTmp, LIMITS));
    for (const part of upload.files) {
      await timer.time("sniff", () => sniffImageType(part.head));
      // As checkFile: from the head kept while parsing when the whole header is in it, a plain
      // frame's size from its SOF segment, anything else by sharp.
      const header = readJpegHeader(part.head);
      const source = header === null ? part.tempPath : Buffer.from(part.head.buffer, part.head.byteOffset, part.head.byteLength);
      await timer.time("readDimensions", async () => header?.frame ?? (await readDimensions(source)));
      await timer.time("readExif", () => readExif(header === null ? part.tempPath : part.head.subarray(0, header.length)));
      await timer.time("putFile", () => storeUpload(dirs.store, `org_bench/mission_bench/${createId("image")}/original.jpg`, part));
    }
    await removeTempFiles(upload.files);
    await timer.time("plain", () => plainOne(file, join(dirs.baselineOut, `steps-${i}.jpg`)));
  }
}

/** HEIC copies of the generated photos (their EXIF carried over by heif-enc), written beside the store. */
async function heicFiles(files: PhotoFile[], dir: string): Promise<PhotoFile[] | string> {
  mkdirSync(dir, { recursive: true });
  const out: PhotoFile[] = [];
  try {
    for (const [i, file] of files
      .filter((f) => f.origin === "generated")
      .slice(0, 8)
      .entries()) {
      const bytes = await heicFromJpeg(readFileSync(file.path), null);
      const path = join(dir, `heic-${i}.heic`);
      writeFileSync(path, bytes);
      out.push({ path, name: file.name.replace(/\.jpe?g$/i, ".heic"), bytes: bytes.length, origin: "generated" });
    }
  } catch (error) {
    return `HEIC case not run: ${error instanceof Error ? error.message : String(error)}`;
  }
  return out.length > 0 ? out : "HEIC case not run: no generated photos to encode";
}

async function heicCase(options: PhotoIntakeOptions, root: string, dirs: IntakeDirs): Promise<PhotoIntakeResults["heic"]> {
  log("HEIC case: encoding the generated photos with heif-enc");
  const files = await heicFiles(options.photos.files, join(root, "heic-inputs"));
  if (typeof files === "string") return { note: files };
  const [multipart, , intake] = variants(files, dirs);
  if (!multipart || !intake) return { note: "HEIC case not run: variants missing" };
  const bytes = files.reduce((n, f) => n + f.bytes, 0);
  const rounds = await measureRounds(
    [
      { ...multipart, name: "multipart-heic", label: "baseline: multipart parse (busboy) → SHA-256 → write, HEIC files" },
      { ...intake, name: "intake-heic", label: "intake of a HEIC: parseUpload → sniff → ispe from the header → EXIF from the Exif item → putFile" },
    ],
    { bytes, files: files.length },
    options.rounds,
    log,
    { min: GOAL.minThroughputRatio },
  );
  const sizes = files.map((f) => f.bytes);
  return {
    inputs: `${files.length} HEIC copies (heif-enc -q 60) of the generated 1600×1200 photos, ${Math.min(...sizes)}–${Math.max(...sizes)} bytes`,
    rounds,
  };
}

export async function runPhotoIntake(options: PhotoIntakeOptions): Promise<PhotoIntakeResults> {
  // libvips' operation cache would answer the header read of a file it saw in an earlier pass;
  // a real upload is never seen twice.
  sharp.cache(false);
  const root = options.supervisor.tempDir("photo-intake");
  try {
    const dirs = makeDirs(root);
    const files = options.photos.files;
    const list = variants(files, dirs);
    const rounds = await measureRounds(list, { bytes: options.photos.totalBytes, files: files.length }, options.rounds, log, {
      min: GOAL.minThroughputRatio,
      on: "intake",
    });
    log("step breakdown");
    const steps = await stepBreakdown(files, dirs);
    const intake = list.find((v) => v.name === "intake");
    const profile = await profilePasses(options.profile && intake !== undefined, options.resultsDir, "photo-intake", rounds.passesPerRound, async (pass) => {
      if (pass === 0) log("profiled pass");
      await intake?.pass(pass);
    });
    return {
      benchmark: "photo-intake",
      goal: `intake throughput ≥ ${GOAL.minThroughputRatio} × multipart parse → SHA-256 → write`,
      inputs: describePhotoSet(options.photos),
      settings: options.rounds,
      rounds,
      steps,
      serviceSide: { wall: serviceSideRatio(rounds, "medianRoundSeconds"), cpu: serviceSideRatio(rounds, "medianCpuSeconds") },
      heic: await heicCase(options, root, dirs),
      ...(profile ? { profile } : {}),
    };
  } finally {
    options.supervisor.removeTempDir(root);
  }
}

// ---- report ---------------------------------------------------------------------------------

function stepTable(steps: StepCost<IntakeStep>[]): string[] {
  return [
    `| step (${STEP_PASSES} extra passes, mean per file of the median pass) | wall ms | CPU ms | share of intake CPU |`,
    "|---|---:|---:|---:|",
    ...stepRows(steps, STEP_LABELS, INTAKE_STEPS),
    `| **intake total** | ${fmt(sumOf(steps, INTAKE_STEPS, "wall") * 1000, 3)} | ${fmt(sumOf(steps, INTAKE_STEPS, "cpu") * 1000, 3)} | 100% |`,
  ];
}

export function formatPhotoIntake(results: PhotoIntakeResults): string {
  return [
    "### photo-intake: intake steps (hash, sniff, EXIF, store) vs multipart parse → hash → write",
    "",
    `Goal (issue): ${results.goal}.`,
    "",
    `Inputs: ${results.inputs}. One multipart request per file (\`new Request(…, { body: FormData })\`, the photo as a file-backed Blob), ` +
      `parsed by the service's parseUpload with receiveSubmission's limits; store = LocalObjectStore on the same filesystem (putFile renames).`,
    "",
    ...roundsSection(results.settings, results.rounds),
    "",
    `The subject includes producing the upload (the client's side, as the brief builds it). The service's steps alone, ` +
      `plain / (intake − upload-stream) at the median rounds: ${fmt(results.serviceSide.wall, 3)} (wall), ${fmt(results.serviceSide.cpu, 3)} (CPU).`,
    "",
    ...stepTable(results.steps),
    "",
    "#### HEIC case (the iPhone default)",
    "",
    ...("note" in results.heic ? [results.heic.note] : [`Inputs: ${results.heic.inputs}.`, "", ...roundsSection(results.settings, results.heic.rounds)]),
    ...profileSection("Profile of the intake subject", results.profile),
  ].join("\n");
}

export const benchmark = defineBenchmark({
  name: "photo-intake",
  header: fileBenchmarksHeader,
  run: async ({ supervisor, options, resultsDir, photos }) =>
    runPhotoIntake({ supervisor, resultsDir, photos: await photos(), rounds: options.rounds, profile: options.profile }),
  format: formatPhotoIntake,
});
