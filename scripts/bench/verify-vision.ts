// Benchmark: the verification of one ordered photo with the local vision model, as the orders
// worker runs it (verifyPhoto with the VisionAnalyser: decode and downscale a 12 MP JPEG with
// sharp, the model in its worker thread, obstruction and crowd judged), against the model alone
// on the same decoded input (ObjectDetector.detectPrepared). Photos one at a time; the report
// gives the ratio of their throughputs (goal ≥ 0.8), photos per minute and p50/p99 per photo.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { verifyPhoto, type VerifyPhotoInput } from "@/lib/service/verification/checks";
import { ObjectDetector, prepareModelInput } from "@/lib/service/verification/vision/object-detector";
import { VisionAnalyser } from "@/lib/service/verification/vision/vision-analyser";
import { defineBenchmark } from "./lib/benchmark";

export const VERIFY_VISION_GOAL = 0.8;

export interface VerifyVisionResults {
  photo: { width: number; height: number; bytes: number };
  rounds: number;
  job: { p50Ms: number; p99Ms: number; photosPerMinute: number };
  model: { p50Ms: number; p99Ms: number; photosPerMinute: number };
  ratio: number;
  goal: string;
  met: boolean;
}

export function verifyVisionHeader(options: { rounds: { rounds: number; warmupRounds: number } }): string[] {
  return [
    `- verify-vision: in the runner process, one 12 MP JPEG (a fixture street photo scaled to 4000×3000), verifyPhoto with the local vision analyser vs the model alone on the same decoded passes (the whole frame and its tiles, each 512×512: the analyser tiles for the crowd check); ${options.rounds.warmupRounds} warm-up + ${Math.max(20, options.rounds.rounds * 4)} measured photos per variant, alternating; one worker thread`,
  ];
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const round1 = (v: number) => Math.round(v * 10) / 10;

export async function runVerifyVision(options: { rounds: { rounds: number; warmupRounds: number } }): Promise<VerifyVisionResults> {
  const fixture = readFileSync(join(import.meta.dirname, "../../lib/service/verification/vision/fixtures/street-bicycle-dog.jpg"));
  const image = await sharp(fixture).resize(4000, 3000, { fit: "fill" }).jpeg({ quality: 90 }).toBuffer();
  const detector = new ObjectDetector({ workers: 1 });
  const analyser = new VisionAnalyser({ detector });
  const prepared = await prepareModelInput(image);
  const input: VerifyPhotoInput = {
    photo: { gps: { lat: 45.4642, lng: 9.19, accuracyM: 5, directionDeg: 90, directionRef: "true" }, capturedAt: new Date("2026-06-01T10:00:00Z") },
    target: { lat: 45.4642, lng: 9.1903, name: "Bench target" },
    category: "cultural_exterior",
    angle: "front",
    timeZone: "Europe/Rome",
    requirements: { minimumCrowd: "low" },
    qaChecks: [],
    image,
    analyser,
    analysisTimeoutMs: 120_000,
  };
  const job: number[] = [];
  const model: number[] = [];
  const measured = Math.max(20, options.rounds.rounds * 4);
  try {
    for (let i = 0; i < options.rounds.warmupRounds + measured; i++) {
      const t0 = performance.now();
      const out = await verifyPhoto(input);
      const t1 = performance.now();
      if (out.ai_checks.obstruction.status === "not_evaluated") throw new Error(`the vision analyser did not answer: ${out.ai_checks.obstruction.message}`);
      await detector.detectPrepared(prepared);
      const t2 = performance.now();
      if (i < options.rounds.warmupRounds) continue;
      job.push(t1 - t0);
      model.push(t2 - t1);
    }
  } finally {
    await detector.close();
  }
  const summary = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    return { p50Ms: round1(quantile(sorted, 0.5)), p99Ms: round1(quantile(sorted, 0.99)), photosPerMinute: round1(60_000 / mean) };
  };
  const jobStats = summary(job);
  const modelStats = summary(model);
  const ratio = Math.round((jobStats.photosPerMinute / modelStats.photosPerMinute) * 100) / 100;
  return {
    photo: { width: 4000, height: 3000, bytes: image.length },
    rounds: measured,
    job: jobStats,
    model: modelStats,
    ratio,
    goal: `verification with the model ≥ ${VERIFY_VISION_GOAL} × the model alone (photos per minute)`,
    met: ratio >= VERIFY_VISION_GOAL,
  };
}

export function formatVerifyVision(r: VerifyVisionResults): string {
  return [
    "### verify-vision: verifyPhoto with the local vision model vs the model alone",
    "",
    `Goal (issue): ${r.goal}. Input: ${r.photo.width}×${r.photo.height} JPEG (${Math.round(r.photo.bytes / 1024)} KiB), ${r.rounds} photos per variant.`,
    "",
    "| variant | photos/min | p50 ms | p99 ms |",
    "| --- | --- | --- | --- |",
    `| verification job (decode 12 MP + model + checks) | ${r.job.photosPerMinute} | ${r.job.p50Ms} | ${r.job.p99Ms} |`,
    `| model alone (same decoded input) | ${r.model.photosPerMinute} | ${r.model.p50Ms} | ${r.model.p99Ms} |`,
    "",
    `Ratio: **${r.ratio}** (${r.met ? "goal met" : "goal missed"}).`,
  ].join("\n");
}

export const benchmark = defineBenchmark({
  name: "verify-vision",
  header: verifyVisionHeader,
  run: ({ options }) => runVerifyVision({ rounds: options.rounds }),
  format: formatVerifyVision,
});
