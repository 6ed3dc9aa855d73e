// What a photo's checks saw, for the review page in plain words: the objects the vision model
// detected (boxes to draw on the photo — the contract with the analyser: obstruction /
// minimum_crowd carry `extra.detections: {label, score, box: [x, y, w, h]}` normalised 0–1 from
// the top-left, and `extra.people_count`), the people counted with the crowd level, and the
// positions the authenticity check compared. No zod: this runs in the dashboard's client bundle.

import type { Words } from "./translate";

export interface Detection {
  label: string;
  score: number;
  /** x, y, width, height as shares of the photo's width and height, from its top-left corner. */
  box: [number, number, number, number];
}

export interface PhotoEvidence {
  detections: Detection[];
  peopleCount: number | null;
  crowdLevel: string | null;
  exifPosition: { lat: number; lng: number } | null;
  devicePosition: { lat: number; lng: number; accuracy_m: number | null } | null;
}

type Checks = Record<string, unknown> | null | undefined;

const extraOf = (checks: Checks, name: string): Record<string, unknown> => {
  const check = checks?.[name];
  const extra = check && typeof check === "object" ? (check as { extra?: unknown }).extra : null;
  return extra && typeof extra === "object" ? (extra as Record<string, unknown>) : {};
};

/**
 * What the checks judge: people, vehicles and umbrellas (lib/service/verification/vision/vision-checks.ts;
 * "van" from an analyser of its own). The model's other classes (a "book" in a façade's windows)
 * are kept in the API record but not drawn: they decided nothing.
 */
export const JUDGED_CLASSES: ReadonlySet<string> = new Set(["person", "car", "truck", "van", "bus", "train", "motorcycle", "bicycle", "umbrella"]);

const share = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1;

function detectionsOf(extra: Record<string, unknown>): Detection[] {
  if (!Array.isArray(extra.detections)) return [];
  return extra.detections.flatMap((d): Detection[] => {
    if (!d || typeof d !== "object") return [];
    const { label, score, box } = d as Record<string, unknown>;
    if (typeof label !== "string" || !Array.isArray(box) || box.length !== 4 || !box.every(share)) return [];
    const [x, y, w, h] = box as [number, number, number, number];
    return [{ label, score: typeof score === "number" ? score : 0, box: [x, y, Math.min(w, 1 - x), Math.min(h, 1 - y)] }];
  });
}

function position(v: unknown): { lat: number; lng: number; accuracy_m: number | null } | null {
  if (!v || typeof v !== "object") return null;
  const { lat, lng, accuracy_m } = v as Record<string, unknown>;
  if (typeof lat !== "number" || typeof lng !== "number") return null;
  return { lat, lng, accuracy_m: typeof accuracy_m === "number" ? accuracy_m : null };
}

/** Detections from both checks (the same object seen by both is drawn once), people, positions. */
export function photoEvidence(checks: Checks): PhotoEvidence {
  const obstruction = extraOf(checks, "obstruction");
  const crowd = extraOf(checks, "minimum_crowd");
  const authenticity = extraOf(checks, "authenticity");
  const seen = new Set<string>();
  const detections = [...detectionsOf(obstruction), ...detectionsOf(crowd)].filter((d) => {
    if (!JUDGED_CLASSES.has(d.label)) return false;
    const key = `${d.label}|${d.box.map((v) => v.toFixed(3)).join(",")}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const count = [crowd.people_count, obstruction.people_count].find((v): v is number => typeof v === "number" && Number.isFinite(v));
  const level = [crowd.level, crowd.crowd_level].find((v): v is string => typeof v === "string");
  const exif = position(authenticity.exif_position);
  return {
    detections,
    peopleCount: count ?? null,
    crowdLevel: level ?? null,
    exifPosition: exif && { lat: exif.lat, lng: exif.lng },
    devicePosition: position(authenticity.device_position),
  };
}

/** "2 people, 1 van" — what was detected, counted by label, in words. */
type OrderWordsLike = Words & { has: (key: string) => boolean };

export function describeDetections(detections: Detection[], words?: Pick<OrderWordsLike, "t" | "has" | "locale">): string | null {
  if (detections.length === 0) return null;
  const counts = new Map<string, number>();
  for (const d of detections) counts.set(d.label, (counts.get(d.label) ?? 0) + 1);
  // The model's English class name where the catalogue has no word for it.
  const plural = (label: string, n: number) => (n === 1 ? label : label === "person" ? "people" : label.endsWith("s") ? label : `${label}s`);
  const parts = [...counts].map(([label, n]) =>
    words?.has(`evidence.object.${label}`) ? words.t(`evidence.object.${label}`, { count: n }) : `${n} ${plural(label, n)}`,
  );
  return new Intl.ListFormat(words?.locale ?? "en", { type: "unit", style: "short" }).format(parts);
}

/** A detection's class in the reader's words, for its box (the model's English name where the catalogue has none). */
export function detectionName(label: string, words?: Pick<OrderWordsLike, "t" | "has">): string {
  return words?.has(`evidence.objectName.${label}`) ? words.t(`evidence.objectName.${label}`) : label;
}
