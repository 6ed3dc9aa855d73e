// The local analyser: `brand_match` by reading the photo's text with Tesseract (tesseract.js, its
// WebAssembly engine and the English LSTM model from @tesseract.js-data/eng — both ship inside npm
// packages, so nothing is downloaded at run time). It judges brands only: a crowd or an obstruction
// needs a vision model that no package here ships, so those stay `not_evaluated` unless an
// analysis service is configured (ANALYSER_URL), which then takes precedence for every check.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import sharp from "sharp";
import { createWorker, OEM, PSM, type Worker } from "tesseract.js";
import { brandMatch, BRAND_MATCH_MIN_SIMILARITY } from "./brand-match";
import type { Analyser, AnalysisCheckName, AnalysisInput, AnalysisVerdict } from "./checks";

/**
 * The readings tried in turn, most productive first (on street scenes with signs): Tesseract finds
 * text blocks at some scales and not others, a sign in a busy scene may only be found as sparse
 * text, and light lettering on a dark sign needs the negative.
 */
const OCR_PASSES = [
  { width: 800, segmentation: PSM.AUTO, negate: false },
  { width: 1600, segmentation: PSM.SPARSE_TEXT, negate: false },
  { width: 800, segmentation: PSM.SPARSE_TEXT, negate: false },
  { width: 1600, segmentation: PSM.AUTO, negate: false },
  { width: 800, segmentation: PSM.AUTO, negate: true },
  { width: 1600, segmentation: PSM.SPARSE_TEXT, negate: true },
];
/** The engine (≈2 s to start) is kept for the next photo, and let go after this long unused. */
const IDLE_MS = 60_000;

function modelDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int");
}

export class OcrAnalyser implements Analyser {
  readonly name = "local OCR";
  readonly evaluates = { checks: ["brand_match"] as const satisfies readonly AnalysisCheckName[], what: "reads text only" };
  /** Local CPU work, not a remote service: a busy machine may take a while, and it will answer. */
  readonly timeLimitMs = 90_000;
  private worker: Promise<Worker> | null = null;
  private idle: ReturnType<typeof setTimeout> | null = null;
  /** One photo at a time: the engine is single-threaded and CPU-bound. */
  private queue: Promise<unknown> = Promise.resolve();

  async analyse(input: AnalysisInput): Promise<Partial<Record<AnalysisCheckName, AnalysisVerdict>>> {
    if (!input.checks.includes("brand_match") || !input.brand) return {};
    const brand = input.brand;
    const run = this.queue.then(() => this.readBrand(input.image, brand, input.signal));
    this.queue = run.catch(() => {});
    return { brand_match: await run };
  }

  /** Stops the engine now (shutdown, tests). */
  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker;
    this.worker = null;
    if (worker) await (await worker.catch(() => null))?.terminate();
  }

  private async readBrand(image: Buffer, brand: string, signal?: AbortSignal): Promise<AnalysisVerdict> {
    signal?.throwIfAborted();
    const upright = sharp(image, { failOn: "none" }).rotate().greyscale();
    const worker = await this.engine();
    let best = brandMatch("", brand);
    let confidence = 0;
    // Read until the brand is found, or every pass is done.
    for (const pass of OCR_PASSES) {
      signal?.throwIfAborted();
      const bytes = await upright
        .clone()
        .resize({ width: pass.width, withoutEnlargement: true })
        .negate(pass.negate ? { alpha: false } : false)
        .png()
        .toBuffer();
      await worker.setParameters({ tessedit_pageseg_mode: pass.segmentation });
      const { data } = await worker.recognize(bytes);
      const match = brandMatch(data.text, brand);
      if (match.similarity > best.similarity) {
        best = match;
        confidence = data.confidence;
      }
      if (best.similarity >= BRAND_MATCH_MIN_SIMILARITY) break;
    }
    this.releaseLater();
    return {
      score: best.similarity,
      passed: best.similarity >= BRAND_MATCH_MIN_SIMILARITY,
      value: best.found,
      extra: { similarity_threshold: BRAND_MATCH_MIN_SIMILARITY, ocr_confidence: Math.round(confidence), engine: "tesseract.js (eng, LSTM)" },
    };
  }

  private engine(): Promise<Worker> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.worker ??= createWorker("eng", OEM.LSTM_ONLY, { langPath: modelDir(), gzip: true, cacheMethod: "none", logger: () => {} });
    // A failed start is not kept: the next photo tries again.
    this.worker.catch(() => {
      this.worker = null;
    });
    return this.worker;
  }

  private releaseLater(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.close(), IDLE_MS);
    this.idle.unref();
  }
}
