// Decodes a HEIC/HEIF photo (the iPhone's default) to RGBA pixels with libheif-js — libheif and
// libde265 compiled to WebAssembly, shipped inside the npm package (nothing fetched at install or
// run time), because sharp's prebuilt libvips has no HEVC decoder. A 12 MP photo takes about half a
// second of CPU, so it runs in a worker thread, never on the event loop: one worker, photos in
// turn (each decode holds ~50 MB of pixels; one at a time bounds the memory), started on first
// use and let go after a minute unused (the WebAssembly heap only shrinks when its worker ends).
// The primary image is decoded with its transformations (irot, imir, clap) applied: the pixels
// come out upright, so no EXIF orientation may be applied to them again.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

export interface DecodedImage {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, rows without padding. */
  data: Uint8Array;
}

/** The decoder refused the image before decoding: its primary image has more pixels than allowed. */
export class HeifTooLargeError extends Error {
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    super(`the HEIF image is ${width}×${height} px, more than allowed`);
  }
}

const IDLE_MS = 60_000;

// Plain CommonJS given as source (eval), so it runs the same under tsx, vitest and a bundled
// server; the package's path is resolved here and handed over (as object-detector.ts does).
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const libheif = require(workerData.libheif);
// libheif-js logs its failures itself; they come back to the caller as errors instead.
console.log = () => undefined;
parentPort.on("message", async ({ id, bytes, maxPixels }) => {
  await libheif.ready;
  const decoder = new libheif.HeifDecoder();
  let images = [];
  const done = (answer, transfer) => {
    for (const image of images) image.free();
    if (decoder.decoder) libheif.heif_context_free(decoder.decoder);
    parentPort.postMessage({ id, ...answer }, transfer);
  };
  try {
    images = decoder.decode(bytes);
    const primary = images.find((image) => image.is_primary()) ?? images[0];
    if (!primary) return done({ error: "no image in the HEIF file" });
    const width = primary.get_width();
    const height = primary.get_height();
    // libheif's own size is checked too (the caller checked the ispe already): grids and
    // transformations are libheif's to judge, and no pixel is decoded past this line otherwise.
    if (width * height > maxPixels) return done({ tooLarge: { width, height } });
    const data = new Uint8ClampedArray(width * height * 4);
    primary.display({ data, width, height }, (shown) => {
      if (!shown) return done({ error: "libheif could not decode the image" });
      done({ width, height, data }, [data.buffer]);
    });
  } catch (error) {
    done({ error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface WorkerAnswer {
  id: number;
  width?: number;
  height?: number;
  data?: Uint8ClampedArray;
  tooLarge?: { width: number; height: number };
  error?: string;
}

interface Job {
  id: number;
  bytes: Uint8Array;
  maxPixels: number;
  resolve: (image: DecodedImage) => void;
  reject: (error: Error) => void;
}

class HeifDecoderThread {
  private worker: Worker | null = null;
  private readonly queue: Job[] = [];
  private current: Job | null = null;
  private idle: NodeJS.Timeout | null = null;
  private nextId = 1;

  decode(bytes: Uint8Array, maxPixels: number): Promise<DecodedImage> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, bytes, maxPixels, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    if (this.current) return;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const job = this.queue.shift();
    if (!job) {
      if (this.worker) {
        this.idle = setTimeout(() => void this.stop(), IDLE_MS);
        this.idle.unref();
      }
      return;
    }
    this.current = job;
    const worker = this.worker ?? this.spawn();
    // A worker with a photo keeps the process alive until it answers; an idle one does not.
    worker.ref();
    // A copy goes over (the caller keeps its bytes); the pixels come back transferred.
    worker.postMessage({ id: job.id, bytes: job.bytes, maxPixels: job.maxPixels });
  }

  private spawn(): Worker {
    const require = createRequire(import.meta.url);
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { libheif: require.resolve("libheif-js/wasm-bundle") } });
    worker.unref();
    worker.on("message", (answer: WorkerAnswer) => {
      const job = this.current;
      if (!job || job.id !== answer.id) return;
      this.current = null;
      worker.unref();
      if (answer.data && answer.width && answer.height) {
        job.resolve({ width: answer.width, height: answer.height, data: new Uint8Array(answer.data.buffer, answer.data.byteOffset, answer.data.byteLength) });
      } else if (answer.tooLarge) job.reject(new HeifTooLargeError(answer.tooLarge.width, answer.tooLarge.height));
      else job.reject(new Error(`HEIF decoding failed: ${answer.error ?? "no answer"}`));
      this.dispatch();
    });
    worker.on("error", (error) => this.lose(worker, error));
    worker.on("exit", (code) => this.lose(worker, new Error(`the HEIF decoder stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  /** A crashed worker fails the photo it held; the next photo starts a fresh one. */
  private lose(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    const job = this.current;
    this.current = null;
    job?.reject(error);
    this.dispatch();
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker || this.current) return;
    this.worker = null;
    await worker.terminate();
  }
}

const thread = new HeifDecoderThread();

/**
 * The primary image of a HEIC/HEIF file as upright RGBA pixels, decoded off the event loop.
 * Refuses (HeifTooLargeError) before decoding when libheif reports more than `maxPixels`.
 */
export function decodeHeif(bytes: Uint8Array, { maxPixels }: { maxPixels: number }): Promise<DecodedImage> {
  return thread.decode(bytes, maxPixels);
}
