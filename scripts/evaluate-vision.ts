// The labelled evaluation of the local vision model (docs/verification.md, "Labelled evaluation"): each photo in
// lib/service/verification/vision/fixtures/labels.json through the detector, people counted and
// the obstruction judged as for a `front` photo, against the hand labels. Prints the table.
//   npx tsx scripts/evaluate-vision.ts
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ObjectDetector } from "@/lib/service/verification/vision/object-detector";
import { crowdLevel, judgeObstruction } from "@/lib/service/verification/vision/vision-checks";

const FIXTURES = join(import.meta.dirname, "../lib/service/verification/vision/fixtures");
const Labels = z.object({ photos: z.array(z.object({ file: z.string(), people: z.number().int().min(0), obstructed: z.boolean() })) });
const labels = Labels.parse(JSON.parse(readFileSync(join(FIXTURES, "labels.json"), "utf8")));

const detector = new ObjectDetector({ workers: 1 });
let tp = 0;
let fp = 0;
let fn = 0;
let crowdAgree = 0;
let obstructionAgree = 0;
const rows: string[] = [];
for (const photo of labels.photos) {
  const detections = await detector.detect(readFileSync(join(FIXTURES, photo.file)));
  const people = detections.filter((d) => d.label === "person").length;
  // Counts, not matched boxes: a person found counts as right up to the labelled number.
  tp += Math.min(people, photo.people);
  fp += Math.max(0, people - photo.people);
  fn += Math.max(0, photo.people - people);
  const crowdOk = crowdLevel(people) === crowdLevel(photo.people);
  const verdict = judgeObstruction(detections, "front");
  const obstructed = !verdict.passed;
  const obstructionOk = obstructed === photo.obstructed;
  crowdAgree += crowdOk ? 1 : 0;
  obstructionAgree += obstructionOk ? 1 : 0;
  rows.push(`| ${photo.file} | ${photo.people} (${crowdLevel(photo.people)}) | ${people} (${crowdLevel(people)}) | ${photo.obstructed ? "yes" : "no"} | ${obstructed ? "yes" : "no"} (${Math.round(Number(verdict.value) * 100)} %) |`);
}
await detector.close();
const n = labels.photos.length;
const pct = (v: number) => `${Math.round(v * 100)} %`;
console.log("| photo | people (labelled) | people (found) | obstructed (labelled) | obstructed (judged, share) |\n| --- | --- | --- | --- | --- |");
console.log(rows.join("\n"));
console.log(`\nperson detection (by counts): precision ${pct(tp / Math.max(1, tp + fp))}, recall ${pct(tp / Math.max(1, tp + fn))}; crowd level agreement ${crowdAgree}/${n} (${pct(crowdAgree / n)}); obstruction verdict agreement ${obstructionAgree}/${n} (${pct(obstructionAgree / n)})`);
