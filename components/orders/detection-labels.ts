// Where the labels of a photo's detection boxes go, so that they stay readable: every label inside
// the photo, none over another label or over the photo's controls (the "larger view" button).
// A thumbnail 255 px wide had nine "person 46%" labels piled on each other, spilling off the photo
// and over the facts beside it.
//
// Greedy placement, in three steps:
// 1. Boxes of one class that overlap (or nearly touch) form a group: a huddle of people is one
//    label, "9 people", at the group's outline, not nine.
// 2. Groups are placed largest first, each at the first free spot of a few around its outline
//    (just above it, inside its top, just below it, inside its bottom; start- or end-aligned).
// 3. When a group finds no spot, its whole class becomes one group ("9 people" at the outline of
//    all nine) and the placement starts again; what still does not fit is dropped (its boxes are
//    still drawn, and the caption under the photo counts everything).
// Pure: sizes in CSS pixels of the photo as laid out; the caller measures the text.

import type { Detection } from "./check-evidence";

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a label says: one detection ("person 46%") or several of one class ("9 people"). */
export type LabelSubject = { kind: "one"; label: string; score: number } | { kind: "group"; label: string; count: number };

export interface PlacedLabel {
  subject: LabelSubject;
  text: string;
  /** Where the label sits, in pixels from the photo's top-left corner. */
  rect: Rect;
  /** The detections it names (indices into the input). */
  members: number[];
}

export interface LabelPlacement {
  labels: PlacedLabel[];
  /** Detections (indices) whose boxes are drawn without a label of their own. */
  unlabelled: number[];
}

export interface PlaceLabelsOptions {
  detections: Detection[];
  /** The photo as laid out, in CSS pixels. */
  width: number;
  height: number;
  /** The label's words for a subject. */
  text: (subject: LabelSubject) => string;
  /** A label's width in pixels for its text (padding included). */
  measure: (text: string) => number;
  labelHeight?: number;
  /** Areas no label may cover: the photo's own controls. */
  obstacles?: Rect[];
  /** How close (in px) two boxes of a class may be and still count as one group. */
  groupGap?: number;
}

const GAP = 1;

export function intersects(a: Rect, b: Rect, gap = 0): boolean {
  return a.x < b.x + b.width + gap && b.x < a.x + a.width + gap && a.y < b.y + b.height + gap && b.y < a.y + a.height + gap;
}

function union(rects: Rect[]): Rect {
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.width));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  return { x, y, width: right - x, height: bottom - y };
}

interface Group {
  label: string;
  members: number[];
  outline: Rect;
  score: number;
}

/** Boxes of one class that overlap or come within `gap` px of each other, joined transitively. */
function groupsOf(boxes: Rect[], detections: Detection[], gap: number): Group[] {
  const parent = boxes.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] ?? i] ?? i;
    return i;
  };
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a && b && detections[i]?.label === detections[j]?.label && intersects(a, b, gap)) parent[find(j)] = find(i);
    }
  }
  const byRoot = new Map<number, number[]>();
  boxes.forEach((_, i) => byRoot.set(find(i), [...(byRoot.get(find(i)) ?? []), i]));
  return [...byRoot.values()].map((members) => groupOf(members, boxes, detections));
}

function groupOf(members: number[], boxes: Rect[], detections: Detection[]): Group {
  const sorted = [...members].sort((a, b) => a - b);
  return {
    label: detections[sorted[0] ?? 0]?.label ?? "",
    members: sorted,
    outline: union(sorted.flatMap((i) => (boxes[i] ? [boxes[i]] : []))),
    score: Math.max(...sorted.map((i) => detections[i]?.score ?? 0)),
  };
}

const subjectOf = (group: Group, detections: Detection[]): LabelSubject =>
  group.members.length === 1
    ? { kind: "one", label: group.label, score: detections[group.members[0] ?? 0]?.score ?? 0 }
    : { kind: "group", label: group.label, count: group.members.length };

/** The spots tried around an outline, in order, each kept inside the photo. */
function candidates(outline: Rect, width: number, height: number, photo: { width: number; height: number }): Rect[] {
  const starts = [outline.x, outline.x + outline.width - width];
  const tops = [outline.y - height, outline.y, outline.y + outline.height, outline.y + outline.height - height];
  const seen = new Set<string>();
  const out: Rect[] = [];
  for (const top of tops) {
    for (const start of starts) {
      const x = Math.round(Math.min(Math.max(0, start), photo.width - width));
      const y = Math.round(Math.min(Math.max(0, top), photo.height - height));
      const key = `${x},${y}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ x, y, width, height });
    }
  }
  return out;
}

/** Labels for the detections' boxes, placed greedily (see the module's comment). */
export function placeLabels({ detections, width, height, text, measure, labelHeight = 16, obstacles = [], groupGap = 2 }: PlaceLabelsOptions): LabelPlacement {
  if (width <= 0 || height <= 0 || detections.length === 0) return { labels: [], unlabelled: detections.map((_, i) => i) };
  const boxes: Rect[] = detections.map((d) => ({ x: d.box[0] * width, y: d.box[1] * height, width: d.box[2] * width, height: d.box[3] * height }));

  const attempt = (groups: Group[]): { labels: PlacedLabel[]; failed: Group[] } => {
    const taken: Rect[] = [...obstacles];
    const labels: PlacedLabel[] = [];
    const failed: Group[] = [];
    for (const group of [...groups].sort(byImportance)) {
      const subject = subjectOf(group, detections);
      const words = text(subject);
      const labelWidth = Math.ceil(measure(words));
      const spot =
        labelWidth <= width && labelHeight <= height
          ? candidates(group.outline, labelWidth, labelHeight, { width, height }).find((c) => !taken.some((t) => intersects(c, t, GAP)))
          : undefined;
      if (!spot) {
        failed.push(group);
        continue;
      }
      taken.push(spot);
      labels.push({ subject, text: words, rect: spot, members: group.members });
    }
    return { labels, failed };
  };

  const groups = groupsOf(boxes, detections, groupGap);
  const first = attempt(groups);
  if (first.failed.length === 0) return { labels: first.labels, unlabelled: [] };

  // A class with a group left over is labelled once, as a whole ("9 people"): labels for some of its
  // groups beside a count of the rest would read as totals that disagree.
  const crowded = new Set(first.failed.map((g) => g.label));
  const whole = [...crowded].map((label) =>
    groupOf(
      detections.flatMap((d, i) => (d.label === label ? [i] : [])),
      boxes,
      detections,
    ),
  );
  const second = attempt([...groups.filter((g) => !crowded.has(g.label)), ...whole]);
  return { labels: second.labels, unlabelled: second.failed.flatMap((g) => g.members).sort((a, b) => a - b) };
}

/** Bigger groups first, then the more confident, then the larger outline; the input order breaks ties. */
function byImportance(a: Group, b: Group): number {
  return (
    b.members.length - a.members.length ||
    b.score - a.score ||
    b.outline.width * b.outline.height - a.outline.width * a.outline.height ||
    (a.members[0] ?? 0) - (b.members[0] ?? 0)
  );
}
