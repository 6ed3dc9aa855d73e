/**
 * `obstruction` and `minimum_crowd` judged from the vision model's detections: pure functions, no
 * model and no I/O, so the thresholds and the words are tested on their own.
 *
 * Obstruction: the target region is the centre band of the frame (the middle 60 % of its width,
 * full height) for angles that face the target, the whole frame for wide views. Blocking objects
 * are vehicles (car, truck, bus, train, motorcycle, bicycle), and people or umbrellas close to the
 * camera (a box at least 45 % of the frame high). The measured value is the share of the target
 * region they cover (union of their boxes); above OBSTRUCTION_MAX_SHARE the view is obstructed.
 * When the order asks for a crowd, people are the subject, not an obstruction: they never count
 * toward the cover (else the photo the order asks for could not pass), and the verdict says how
 * many were left to the crowd check.
 *
 * Crowd: people counted (whole frame and tiles, see ./tiling), mapped to levels — empty 0, sparse 1–3, moderate 4–9,
 * busy 10 or more. An order's `low` asks for at least sparse, `moderate` for at least moderate,
 * `high` for busy.
 */
import type { Angle, CrowdLevel } from "@/lib/orders/vocabulary";
import { FACING_ANGLES } from "@/lib/verification/place-checks";
import type { AnalysisVerdict, Localisable } from "../checks";
import type { Detection } from "./object-detector";

export const OBSTRUCTION_MAX_SHARE = 0.3;
/** The band of the frame toward the target for facing angles, as shares of the width. */
export const TARGET_BAND = { left: 0.2, right: 0.8 } as const;
const VEHICLES = new Set(["car", "truck", "bus", "train", "motorcycle", "bicycle"]);
/** People and umbrellas block the view only when close to the camera: this tall a share of the frame. */
export const NEAR_MIN_HEIGHT = 0.45;
const NEAR_BLOCKERS = new Set(["person", "umbrella"]);
const NOUN: Record<string, string> = {
  car: "a parked car",
  truck: "a van or truck",
  bus: "a bus",
  train: "a train",
  motorcycle: "a motorbike",
  bicycle: "a bicycle",
  person: "a person close to the camera",
  umbrella: "an umbrella",
};
const PLURAL: Record<string, string> = {
  car: "parked cars",
  truck: "vans or trucks",
  bus: "buses",
  train: "trains",
  motorcycle: "motorbikes",
  bicycle: "bicycles",
  person: "people close to the camera",
  umbrella: "umbrellas",
};

export const CROWD_BANDS = [
  { level: "empty", min: 0 },
  { level: "sparse", min: 1 },
  { level: "moderate", min: 4 },
  { level: "busy", min: 10 },
] as const;
export type MeasuredCrowd = (typeof CROWD_BANDS)[number]["level"];
/** The measured level each ordered level needs at least. */
export const CROWD_NEEDED = { low: "sparse", moderate: "moderate", high: "busy" } as const satisfies Record<CrowdLevel, MeasuredCrowd>;

const GRID = 100;

interface Region {
  left: number;
  right: number;
}

export function targetRegion(angle: Angle | undefined): Region {
  return angle && (FACING_ANGLES as readonly string[]).includes(angle) ? TARGET_BAND : { left: 0, right: 1 };
}

export function isBlocking(d: Detection, crowdIsSubject = false): boolean {
  if (crowdIsSubject && d.label === "person") return false;
  return VEHICLES.has(d.label) || (NEAR_BLOCKERS.has(d.label) && d.box[3] >= NEAR_MIN_HEIGHT);
}

export interface JudgeObstructionOptions {
  /** The order asks for a crowd (minimum_crowd): people are what the photo should show. */
  crowdIsSubject?: boolean;
}

/** The share of the region covered by the union of the boxes, and where the covered part's centre lies (0–1 across the region). */
export function coverage(boxes: Detection["box"][], region: Region): { share: number; centre: number } {
  const from = Math.round(region.left * GRID);
  const to = Math.round(region.right * GRID);
  let covered = 0;
  let sumX = 0;
  for (let gx = from; gx < to; gx++) {
    const x = (gx + 0.5) / GRID;
    for (let gy = 0; gy < GRID; gy++) {
      const y = (gy + 0.5) / GRID;
      if (boxes.some(([bx, by, bw, bh]) => x >= bx && x < bx + bw && y >= by && y < by + bh)) {
        covered++;
        sumX += (gx - from + 0.5) / (to - from);
      }
    }
  }
  const cells = (to - from) * GRID;
  return { share: cells === 0 ? 0 : covered / cells, centre: covered === 0 ? 0.5 : sumX / covered };
}

function countObjects(blocking: Detection[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const d of blocking) counts.set(d.label, (counts.get(d.label) ?? 0) + 1);
  return [...counts];
}

/** "a parked car and 2 people close to the camera" */
function nameObjects(blocking: Detection[]): string {
  const parts = countObjects(blocking).map(([label, n]) => (n === 1 ? (NOUN[label] ?? `a ${label}`) : `${n} ${PLURAL[label] ?? `${label}s`}`));
  return parts.length <= 1 ? (parts[0] ?? "nothing") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** The same as a code's figure: "car:1,person:2" (codes.objects.<label> names each in the reader's words). */
const objectsParam = (blocking: Detection[]) =>
  countObjects(blocking)
    .map(([label, n]) => `${label}:${n}`)
    .join(",");

const percent = (share: number) => `${Math.round(share * 100)} %`;
const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function judgeObstruction(detections: Detection[], angle?: Angle, { crowdIsSubject = false }: JudgeObstructionOptions = {}): AnalysisVerdict {
  const region = targetRegion(angle);
  // One object seen as two classes (a van as car and truck) is named once: the better guess.
  const blocking: Detection[] = [];
  for (const d of detections.filter((d) => isBlocking(d, crowdIsSubject)).sort((a, b) => b.score - a.score)) {
    if (!blocking.some((b) => sameBox(b.box, d.box))) blocking.push(d);
  }
  const { share, centre } = coverage(
    blocking.map((d) => d.box),
    region,
  );
  const measured = Math.round(share * 1000) / 1000;
  const passed = share <= OBSTRUCTION_MAX_SHARE;
  const where = region.left === 0 ? "the frame" : "the part of the frame toward the target";
  const inRegion = blocking.filter((d) => d.box[0] < region.right && d.box[0] + d.box[2] > region.left);
  const named = nameObjects(inRegion);
  // Stepping sideways moves near objects across the frame the other way: an object on the left of
  // the view leaves it when the zoomer steps right.
  const move = centre < 0.4 ? "right" : centre > 0.6 ? "left" : "wait";
  const side =
    move === "right" ? "step to the right" : move === "left" ? "step to the left" : `move closer or wait for ${inRegion.length === 1 ? "it" : "them"} to move`;
  const figures = {
    objects: objectsParam(inRegion),
    count: inRegion.length,
    share_pct: Math.round(share * 100),
    allowed_pct: Math.round(OBSTRUCTION_MAX_SHARE * 100),
    region: region.left === 0 ? "frame" : "toward_target",
  };
  // With a crowd asked for, a clear view says how many people it left to the crowd check.
  const people = crowdIsSubject ? detections.filter((d) => d.label === "person").length : 0;
  const clear: Localisable = crowdIsSubject
    ? { code: "obstruction.clear_crowd", params: { region: figures.region, people } }
    : { code: "obstruction.clear", params: { region: figures.region } };
  return {
    score: Math.round((1 - share) * 1000) / 1000,
    passed,
    value: measured,
    threshold: `at most ${percent(OBSTRUCTION_MAX_SHARE)} of ${where} covered`,
    message:
      inRegion.length === 0
        ? crowdIsSubject
          ? `Nothing blocks ${where}; the ${people} ${people === 1 ? "person" : "people"} in view count toward the crowd the order asks for, not as an obstruction.`
          : `Nothing blocks ${where}.`
        : `${capitalised(named)} ${inRegion.length === 1 ? "covers" : "cover"} ${percent(share)} of ${where}${passed ? `, within the ${percent(OBSTRUCTION_MAX_SHARE)} allowed` : ""}.`,
    instruction: `${capitalised(named)} ${inRegion.length === 1 ? "covers" : "cover"} the view: ${side}.`,
    coded: {
      message: inRegion.length === 0 ? clear : { code: passed ? "obstruction.covers_within" : "obstruction.covers", params: figures },
      instructions: [{ code: "obstruction.move", params: { objects: figures.objects, count: figures.count, move } }],
    },
    extra: {
      detections,
      blocking: inRegion.map((d) => d.label),
      target_band: [region.left, region.right],
      ...(crowdIsSubject ? { people_as_subject: people } : {}),
    },
  };
}

function sameBox(a: Detection["box"], b: Detection["box"]): boolean {
  const w = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return false;
  return (w * h) / Math.min(a[2] * a[3], b[2] * b[3]) > 0.8;
}

export function crowdLevel(people: number): MeasuredCrowd {
  let level: MeasuredCrowd = "empty";
  for (const band of CROWD_BANDS) if (people >= band.min) level = band.level;
  return level;
}

export function judgeCrowd(detections: Detection[], ordered: CrowdLevel): AnalysisVerdict {
  const people = detections.filter((d) => d.label === "person").length;
  const level = crowdLevel(people);
  const needed = CROWD_NEEDED[ordered];
  const min = CROWD_BANDS.find((b) => b.level === needed)?.min ?? 1;
  const passed = people >= min;
  const counted = `${people} ${people === 1 ? "person" : "people"}`;
  return {
    score: Math.round(Math.min(1, people / min) * 1000) / 1000,
    passed,
    value: `${counted} (${level})`,
    threshold: `${ordered}: at least ${min} ${min === 1 ? "person" : "people"} (${needed})`,
    message: `${capitalised(counted)} counted in the photo: ${level}${passed ? `, enough for a ${ordered} crowd` : `; a ${ordered} crowd needs at least ${min}`}.`,
    instruction: `Come back when the place is busier: the order asks for a ${ordered} crowd (at least ${min} ${min === 1 ? "person" : "people"} in view), the photo shows ${counted}.`,
    coded: {
      message: { code: passed ? "minimum_crowd.enough" : "minimum_crowd.too_few", params: { people, level, ordered, min } },
      instructions: [{ code: "minimum_crowd.come_back", params: { people, ordered, min } }],
    },
    extra: { detections: detections.filter((d) => d.label === "person"), people_count: people, crowd_level: level },
  };
}
