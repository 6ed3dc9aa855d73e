import { describe, expect, it } from "vitest";
import type { Detection } from "./check-evidence";
import { intersects, placeLabels, type LabelPlacement, type LabelSubject, type Rect } from "./detection-labels";

const text = (s: LabelSubject) =>
  s.kind === "one" ? `${s.label} ${Math.round(s.score * 100)}%` : `${s.count} ${s.label === "person" ? "people" : `${s.label}s`}`;
// 10 px bold text: about 6 px a character, and 4 px of padding each side.
const measure = (words: string) => words.length * 6 + 8;
const person = (x: number, y: number, w = 0.08, h = 0.3, score = 0.46): Detection => ({ label: "person", score, box: [x, y, w, h] });

/** Every placed label inside the photo, off every obstacle, and off every other label. */
function expectTidy(placement: LabelPlacement, photo: { width: number; height: number }, obstacles: Rect[] = []) {
  const rects = placement.labels.map((l) => l.rect);
  for (const r of rects) {
    expect(r.x, "left edge").toBeGreaterThanOrEqual(0);
    expect(r.y, "top edge").toBeGreaterThanOrEqual(0);
    expect(r.x + r.width, "right edge").toBeLessThanOrEqual(photo.width);
    expect(r.y + r.height, "bottom edge").toBeLessThanOrEqual(photo.height);
    for (const o of obstacles) expect(intersects(r, o), "over a control").toBe(false);
  }
  rects.forEach((a, i) =>
    rects.slice(i + 1).forEach((b) => expect(intersects(a, b), `labels ${JSON.stringify(a)} and ${JSON.stringify(b)} overlap`).toBe(false)),
  );
}

/** Every detection named once: by a label or in the list of unlabelled ones. */
function expectEachNamedOnce(placement: LabelPlacement, count: number) {
  const named = [...placement.labels.flatMap((l) => l.members), ...placement.unlabelled].sort((a, b) => a - b);
  expect(named).toEqual(Array.from({ length: count }, (_, i) => i));
}

describe("placeLabels", () => {
  it("labels a lone box just above it, at its start", () => {
    const placement = placeLabels({ detections: [person(0.4, 0.4)], width: 400, height: 300, text, measure });
    expect(placement.labels).toHaveLength(1);
    expect(placement.labels[0]?.text).toBe("person 46%");
    expect(placement.labels[0]?.rect).toEqual({ x: 160, y: 104, width: 68, height: 16 });
    expect(placement.unlabelled).toEqual([]);
  });

  it("puts the label inside the box when the box touches the photo's top, and pulls it in from the right edge", () => {
    const placement = placeLabels({ detections: [person(0.95, 0, 0.05, 0.5)], width: 400, height: 300, text, measure });
    expect(placement.labels[0]?.rect).toEqual({ x: 332, y: 0, width: 68, height: 16 });
    expectTidy(placement, { width: 400, height: 300 });
  });

  it("gives a huddle of overlapping people one label that counts them", () => {
    const huddle = Array.from({ length: 9 }, (_, i) => person(0.1 + i * 0.05, 0.3));
    const placement = placeLabels({ detections: huddle, width: 255, height: 191, text, measure });
    expect(placement.labels.map((l) => l.text)).toEqual(["9 people"]);
    expectEachNamedOnce(placement, 9);
  });

  it("labels people standing apart one by one when the photo has room", () => {
    const apart = [person(0.05, 0.5), person(0.45, 0.5), person(0.85, 0.5)];
    const placement = placeLabels({ detections: apart, width: 1000, height: 700, text, measure });
    expect(placement.labels.map((l) => l.subject.kind)).toEqual(["one", "one", "one"]);
    expectTidy(placement, { width: 1000, height: 700 });
  });

  it("counts a class as a whole when its labels do not fit a thumbnail, and never stacks labels", () => {
    // Nine people spread over a 255 px thumbnail (the issue's photo): nine "person 46%" labels cannot all fit.
    const spread = Array.from({ length: 9 }, (_, i) => person((i % 5) * 0.2, 0.1 + Math.floor(i / 5) * 0.45, 0.1, 0.3));
    const obstacles = [{ x: 255 - 36, y: 191 - 36, width: 32, height: 32 }];
    const placement = placeLabels({ detections: spread, width: 255, height: 191, text, measure, obstacles });
    expect(placement.labels.map((l) => l.text)).toEqual(["9 people"]);
    expectTidy(placement, { width: 255, height: 191 }, obstacles);
    expectEachNamedOnce(placement, 9);
  });

  it("keeps other classes' own labels when people are counted as a whole", () => {
    const scene = [
      ...Array.from({ length: 6 }, (_, i) => person(i * 0.16, 0.2, 0.1, 0.3)),
      { label: "car", score: 0.9, box: [0.3, 0.7, 0.4, 0.28] } satisfies Detection,
    ];
    const placement = placeLabels({ detections: scene, width: 255, height: 191, text, measure });
    expect(placement.labels.map((l) => l.text).sort()).toEqual(["6 people", "car 90%"]);
    expectTidy(placement, { width: 255, height: 191 });
    expectEachNamedOnce(placement, 7);
  });

  it("never covers a control: a box under the button gets its label elsewhere", () => {
    const button = { x: 200, y: 150, width: 50, height: 40 };
    const placement = placeLabels({ detections: [person(0.75, 0.75, 0.2, 0.2)], width: 255, height: 191, text, measure, obstacles: [button] });
    expect(placement.labels).toHaveLength(1);
    expectTidy(placement, { width: 255, height: 191 }, [button]);
  });

  it("drops a label wider than the photo, keeping the detection as unlabelled", () => {
    const placement = placeLabels({ detections: [person(0.1, 0.1)], width: 40, height: 100, text, measure });
    expect(placement.labels).toEqual([]);
    expect(placement.unlabelled).toEqual([0]);
  });

  it("places nothing before the photo has a size", () => {
    expect(placeLabels({ detections: [person(0.1, 0.1)], width: 0, height: 0, text, measure })).toEqual({ labels: [], unlabelled: [0] });
  });

  it("stays tidy on many random scenes and sizes", () => {
    // A fixed linear congruential generator: the same scenes every run.
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const classes = ["person", "person", "person", "car", "umbrella"];
    for (let run = 0; run < 200; run++) {
      const width = 120 + Math.floor(random() * 1000);
      const height = Math.round(width * (0.5 + random()));
      const detections = Array.from({ length: Math.floor(random() * 20) }, (): Detection => {
        const x = random() * 0.9;
        const y = random() * 0.9;
        return {
          label: classes[Math.floor(random() * classes.length)] ?? "person",
          score: random(),
          box: [x, y, Math.min(1 - x, 0.02 + random() * 0.4), Math.min(1 - y, 0.02 + random() * 0.5)],
        };
      });
      const obstacles = [{ x: width - 40, y: height - 36, width: 36, height: 32 }];
      const placement = placeLabels({ detections, width, height, text, measure, obstacles });
      expectTidy(placement, { width, height }, obstacles);
      expectEachNamedOnce(placement, detections.length);
    }
  });
});
