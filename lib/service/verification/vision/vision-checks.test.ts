import { describe, expect, it } from "vitest";
import type { Detection } from "./object-detector";
import { toDetections } from "./object-detector";
import { coverage, crowdLevel, judgeCrowd, judgeObstruction, OBSTRUCTION_MAX_SHARE } from "./vision-checks";

const d = (label: string, box: Detection["box"], score = 0.6): Detection => ({ label, score, box });
const person = (x: number) => d("person", [x, 0.5, 0.05, 0.15]);

describe("judgeObstruction", () => {
  it("fails a van over the left of the entrance, names it and says to step right", () => {
    const out = judgeObstruction([d("truck", [0.05, 0.2, 0.5, 0.8])], "entrance");
    expect(out.passed).toBe(false);
    expect(out.value).toBeGreaterThan(OBSTRUCTION_MAX_SHARE);
    expect(out.instruction).toBe("A van or truck covers the view: step to the right.");
    expect(out.extra).toMatchObject({ blocking: ["truck"], target_band: [0.2, 0.8] });
  });

  it("says to step left when the blocking object is on the right", () => {
    const out = judgeObstruction([d("car", [0.5, 0.2, 0.5, 0.7])], "front");
    expect(out.passed).toBe(false);
    expect(out.instruction).toMatch(/^A parked car covers the view: step to the left\.$/);
  });

  it("counts only the centre band for a facing angle, the whole frame for a wide view", () => {
    const bus = [d("bus", [0, 0, 0.2, 1])];
    expect(judgeObstruction(bus, "front")).toMatchObject({ passed: true, value: 0, message: "Nothing blocks the part of the frame toward the target." });
    expect(judgeObstruction(bus, "overview").value).toBeCloseTo(0.2, 2);
  });

  it("ignores people far from the camera, and blocks on people close to it", () => {
    expect(judgeObstruction([person(0.4), person(0.5), person(0.6)], "front")).toMatchObject({ passed: true, value: 0 });
    const near = judgeObstruction([d("person", [0.3, 0.1, 0.2, 0.9]), d("person", [0.5, 0.1, 0.2, 0.9])], "front");
    expect(near.passed).toBe(false);
    expect(near.message).toMatch(/^2 people close to the camera cover 60 % of the part of the frame toward the target\.$/);
  });

  it("with a crowd asked for, counts people as the subject, never as an obstruction", () => {
    // The busy restaurant of the review: six people close to the camera over most of the band.
    const room = [0.15, 0.3, 0.45, 0.6, 0.7, 0.25].map((x) => d("person", [x, 0.1, 0.15, 0.85]));
    const people = [...room, ...[0.1, 0.2, 0.5, 0.8].map((x) => person(x))];
    expect(judgeObstruction(people, "interior").passed).toBe(false);
    const asked = judgeObstruction(people, "interior", { crowdIsSubject: true });
    expect(asked).toMatchObject({ passed: true, value: 0, extra: { blocking: [], people_as_subject: 10 } });
    expect(asked.message).toBe("Nothing blocks the frame; the 10 people in view count toward the crowd the order asks for, not as an obstruction.");
    expect(asked.coded?.message).toEqual({ code: "obstruction.clear_crowd", params: { region: "frame", people: 10 } });
    // The crowd check, asked for the same photo, passes on the same people: no contradiction.
    expect(judgeCrowd(people, "moderate").passed).toBe(true);
  });

  it("with a crowd asked for, still fails a van in front of the target and names only the van", () => {
    const out = judgeObstruction([d("truck", [0.05, 0.2, 0.5, 0.8]), d("person", [0.5, 0.1, 0.2, 0.9])], "entrance", { crowdIsSubject: true });
    expect(out.passed).toBe(false);
    expect(out.instruction).toBe("A van or truck covers the view: step to the right.");
    expect(out.extra).toMatchObject({ blocking: ["truck"], people_as_subject: 1 });
  });

  it("names a van seen as both car and truck once", () => {
    const out = judgeObstruction([d("car", [0.3, 0.3, 0.4, 0.5], 0.56), d("truck", [0.3, 0.3, 0.4, 0.5], 0.32)], "front");
    expect(out.extra?.blocking).toEqual(["car"]);
  });
});

describe("judgeCrowd", () => {
  it("maps counts to levels", () => {
    expect([0, 1, 3, 4, 9, 10].map(crowdLevel)).toEqual(["empty", "sparse", "sparse", "moderate", "moderate", "busy"]);
  });

  it("passes a moderate order with 5 people and records the count and level", () => {
    const out = judgeCrowd([0.1, 0.2, 0.3, 0.4, 0.5].map(person), "moderate");
    expect(out).toMatchObject({ passed: true, value: "5 people (moderate)", extra: { people_count: 5, crowd_level: "moderate" } });
  });

  it("fails a busy order with 5 people and says how many are needed", () => {
    const out = judgeCrowd([0.1, 0.2, 0.3, 0.4, 0.5].map(person), "high");
    expect(out.passed).toBe(false);
    expect(out.score).toBe(0.5);
    expect(out.instruction).toMatch(/at least 10 people in view\), the photo shows 5 people/);
  });
});

describe("toDetections", () => {
  it("turns model rows into normalised boxes, merging overlaps of one class", () => {
    const rows = [
      [128, 0, 256, 256, 0.8, 2],
      [130, 2, 256, 256, 0.5, 2],
      [0, 0, 512, 512, 0.4, 0],
    ];
    expect(toDetections(rows)).toEqual([d("car", [0.25, 0, 0.25, 0.5], 0.8), d("person", [0, 0, 1, 1], 0.4)]);
  });
});

describe("coverage", () => {
  it("measures the union of boxes, not their sum", () => {
    expect(
      coverage(
        [
          [0, 0, 0.5, 1],
          [0, 0, 0.5, 1],
        ],
        { left: 0, right: 1 },
      ).share,
    ).toBeCloseTo(0.5, 2);
  });
});
