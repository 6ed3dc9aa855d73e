// The labelled evaluation of the local vision model (docs/verification.md, "Labelled evaluation"): each photo in
// lib/service/verification/vision/fixtures/labels.json through the detector, people counted and
// the obstruction judged as for a `front` photo (on the whole frame's pass, as the analyser does
// for an order without a crowd), against the hand labels. Prints the table, the figures per scene
// and the time per photo, decoding and all passes included (one worker, the model loaded before
// the first photo is timed).
//   npx tsx scripts/evaluate-vision.ts [--passes=7] [--min-score=0.2] [--tile-min-score=0.18]
// (--passes=1 --min-score=0.3: the model as it was before tiling.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import {
  DEFAULT_PASSES,
  MIN_DETECTION_SCORE,
  ObjectDetector,
  prepareModelInput,
  TILE_MIN_DETECTION_SCORE,
} from "@/lib/service/verification/vision/object-detector";
import { isWholeFrame, mergePasses } from "@/lib/service/verification/vision/tiling";
import { crowdLevel, judgeObstruction } from "@/lib/service/verification/vision/vision-checks";

const FIXTURES = join(import.meta.dirname, "../lib/service/verification/vision/fixtures");
const Labels = z.object({ photos: z.array(z.object({ file: z.string(), people: z.number().int().min(0), obstructed: z.boolean(), scene: z.string() })) });
const labels = Labels.parse(JSON.parse(readFileSync(join(FIXTURES, "labels.json"), "utf8")));
const Score = z.coerce.number().min(0).max(1);
const Args = z.object({
  passes: z.coerce.number().int().min(1).max(17).default(DEFAULT_PASSES),
  "min-score": Score.default(MIN_DETECTION_SCORE),
  "tile-min-score": Score.default(TILE_MIN_DETECTION_SCORE),
});
const args = Args.parse(parseArgs({ options: { passes: { type: "string" }, "min-score": { type: "string" }, "tile-min-score": { type: "string" } } }).values);

const detector = new ObjectDetector({ workers: 1, passes: args.passes, minScore: args["min-score"], tileMinScore: args["tile-min-score"] });
// The model loads once per worker (≈2 s): not part of a photo's time.
await detector.detect(readFileSync(join(FIXTURES, labels.photos[0]?.file ?? "")));
let tp = 0;
let fp = 0;
let fn = 0;
let crowdAgree = 0;
let obstructionAgree = 0;
const times: number[] = [];
const byScene = new Map<string, { tp: number; fp: number; fn: number; photos: number }>();
const rows: string[] = [];
for (const photo of labels.photos) {
  const image = readFileSync(join(FIXTURES, photo.file));
  const started = performance.now();
  const passes = await detector.detectPasses(await prepareModelInput(image, { passes: args.passes }));
  const detections = mergePasses(passes);
  const ms = performance.now() - started;
  // Obstruction as the analyser judges it when the order asks for no crowd: the whole frame alone.
  const wholeFrame = mergePasses(passes.filter((p) => isWholeFrame(p.tile)));
  times.push(ms);
  const people = detections.filter((d) => d.label === "person").length;
  // Counts, not matched boxes: a person found counts as right up to the labelled number.
  tp += Math.min(people, photo.people);
  fp += Math.max(0, people - photo.people);
  fn += Math.max(0, photo.people - people);
  const scene = byScene.get(photo.scene) ?? { tp: 0, fp: 0, fn: 0, photos: 0 };
  byScene.set(photo.scene, {
    tp: scene.tp + Math.min(people, photo.people),
    fp: scene.fp + Math.max(0, people - photo.people),
    fn: scene.fn + Math.max(0, photo.people - people),
    photos: scene.photos + 1,
  });
  const crowdOk = crowdLevel(people) === crowdLevel(photo.people);
  const verdict = judgeObstruction(wholeFrame, "front");
  const obstructed = !verdict.passed;
  const obstructionOk = obstructed === photo.obstructed;
  crowdAgree += crowdOk ? 1 : 0;
  obstructionAgree += obstructionOk ? 1 : 0;
  rows.push(
    `| ${photo.file} | ${photo.people} (${crowdLevel(photo.people)}) | ${people} (${crowdLevel(people)}) | ${photo.obstructed ? "yes" : "no"} | ${obstructed ? "yes" : "no"} (${Math.round(Number(verdict.value) * 100)} %) | ${Math.round(ms)} |`,
  );
}
await detector.close();
const n = labels.photos.length;
const pct = (v: number) => `${Math.round(v * 100)} %`;
const sorted = [...times].sort((a, b) => a - b);
const median = sorted.length % 2 === 1 ? (sorted[(sorted.length - 1) / 2] ?? 0) : ((sorted[sorted.length / 2 - 1] ?? 0) + (sorted[sorted.length / 2] ?? 0)) / 2;
console.log(`passes ${args.passes}, whole-frame score ≥ ${args["min-score"]}, tile score ≥ ${args["tile-min-score"]}, ${n} photos\n`);
console.log("| photo | people (labelled) | people (found) | obstructed (labelled) | obstructed (judged, share) | ms |\n| --- | --- | --- | --- | --- | --- |");
console.log(rows.join("\n"));
console.log("\n| scene | photos | people | precision | recall |\n| --- | --- | --- | --- | --- |");
for (const [scene, m] of byScene)
  console.log(`| ${scene} | ${m.photos} | ${m.tp + m.fn} | ${pct(m.tp / Math.max(1, m.tp + m.fp))} | ${pct(m.tp / Math.max(1, m.tp + m.fn))} |`);
console.log(
  `\nperson detection (by counts): precision ${pct(tp / Math.max(1, tp + fp))}, recall ${pct(tp / Math.max(1, tp + fn))} (${tp} of ${tp + fn} people, ${fp} extra); crowd level agreement ${crowdAgree}/${n} (${pct(crowdAgree / n)}); obstruction verdict agreement ${obstructionAgree}/${n} (${pct(obstructionAgree / n)}); time per photo: median ${Math.round(median)} ms, slowest ${Math.round(sorted.at(-1) ?? 0)} ms`,
);
