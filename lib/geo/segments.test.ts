import { describe, it, expect } from "vitest";

import {
  consecutiveSegmentsOverlap,
  forEachOverlappingBoxPair,
  locatePointInRing,
  orient2d,
  ringIsCounterClockwise,
  segmentBox,
  segmentContact,
  type Point,
  type SegmentBox,
} from "./segments";

describe("orient2d", () => {
  it("gives the sign of the turn a→b→c", () => {
    expect(orient2d([0, 0], [1, 0], [0, 1])).toBe(1);
    expect(orient2d([0, 0], [0, 1], [1, 0])).toBe(-1);
    expect(orient2d([0, 0], [1, 1], [2, 2])).toBe(0);
  });

  it("is exact where naive floating point gets the sign wrong", () => {
    // 0.1 + 0.2 !== 0.3 in doubles, so these three points are NOT collinear;
    // the naive determinant rounds to exactly zero.
    const a: Point = [0, 0];
    const b: Point = [0.1, 0.1];
    const c: Point = [0.30000000000000004, 0.3];
    expect(orient2d(a, b, c)).toBe(-1);
    expect(orient2d(a, c, b)).toBe(1);
  });

  it("stays consistent under permutation for nearly collinear points", () => {
    // Classic Kettner et al. style input: points a hair off the line y = x.
    const a: Point = [0.5, 0.5];
    const b: Point = [12, 12];
    const c: Point = [24, 24];
    for (let k = 0; k < 256; k++) {
      const p: Point = [0.5 + k * 2 ** -53, 0.5];
      const turn = orient2d(a, b, p);
      expect(orient2d(b, p, a)).toBe(turn);
      expect(orient2d(p, a, b)).toBe(turn);
      expect(orient2d(b, a, p)).toBe(turn === 0 ? 0 : -turn);
      // p moves right of the line y = x as k grows, so the turn is clockwise
      expect(turn).toBe(k === 0 ? 0 : -1);
    }
    expect(orient2d(a, b, c)).toBe(0);
  });

  it("handles subnormal differences without underflowing to a wrong zero", () => {
    // Both products underflow to 0 in doubles; the true determinant is -tiny².
    const tiny = 2 ** -1070;
    expect(orient2d([0, 0], [tiny, 2 * tiny], [2 * tiny, 3 * tiny])).toBe(-1);
    expect(orient2d([0, 0], [2 * tiny, 3 * tiny], [tiny, 2 * tiny])).toBe(1);
  });
});

describe("segmentContact", () => {
  it("detects a proper crossing", () => {
    expect(segmentContact([0, 0], [2, 2], [0, 2], [2, 0])).toBe("cross");
  });

  it("detects an endpoint touching the interior of the other segment", () => {
    expect(segmentContact([0, 0], [2, 0], [1, 0], [1, 5])).toBe("touch");
  });

  it("detects a shared endpoint as a touch", () => {
    expect(segmentContact([0, 0], [1, 1], [1, 1], [2, 0])).toBe("touch");
  });

  it("detects collinear overlap", () => {
    expect(segmentContact([0, 0], [2, 0], [1, 0], [3, 0])).toBe("overlap");
    expect(segmentContact([0, 0], [0, 2], [0, 3], [0, 1])).toBe("overlap");
  });

  it("treats collinear segments meeting end to end as a touch", () => {
    expect(segmentContact([0, 0], [1, 0], [1, 0], [2, 0])).toBe("touch");
  });

  it("reports disjoint segments, collinear or not", () => {
    expect(segmentContact([0, 0], [1, 0], [2, 0], [3, 0])).toBe("none");
    expect(segmentContact([0, 0], [1, 0], [0, 1], [1, 1])).toBe("none");
    expect(segmentContact([0, 0], [1, 1], [2, 0], [1.5, 1])).toBe("none");
  });
});

describe("consecutiveSegmentsOverlap", () => {
  it("is false for an ordinary corner and for a straight continuation", () => {
    expect(consecutiveSegmentsOverlap([0, 0], [1, 0], [1, 1])).toBe(false);
    expect(consecutiveSegmentsOverlap([0, 0], [1, 0], [2, 0])).toBe(false);
  });

  it("is true when the path doubles back (a spike)", () => {
    expect(consecutiveSegmentsOverlap([0, 0], [2, 0], [1, 0])).toBe(true);
    expect(consecutiveSegmentsOverlap([0, 0], [0, 2], [0, 3])).toBe(false);
    expect(consecutiveSegmentsOverlap([0, 3], [0, 1], [0, 2])).toBe(true);
  });
});

describe("locatePointInRing", () => {
  const square: Point[] = [
    [0, 0],
    [4, 0],
    [4, 4],
    [0, 4],
    [0, 0],
  ];

  it("distinguishes inside, outside and boundary", () => {
    expect(locatePointInRing([2, 2], square)).toBe("inside");
    expect(locatePointInRing([5, 2], square)).toBe("outside");
    expect(locatePointInRing([4, 2], square)).toBe("boundary");
    expect(locatePointInRing([0, 0], square)).toBe("boundary");
  });

  it("does not depend on ring orientation", () => {
    const reversed = [...square].reverse();
    expect(locatePointInRing([2, 2], reversed)).toBe("inside");
    expect(locatePointInRing([-1, 2], reversed)).toBe("outside");
  });

  it("handles a ray passing exactly through a vertex", () => {
    const diamond: Point[] = [
      [2, 0],
      [4, 2],
      [2, 4],
      [0, 2],
      [2, 0],
    ];
    expect(locatePointInRing([1, 2], diamond)).toBe("inside");
    expect(locatePointInRing([-1, 2], diamond)).toBe("outside");
    expect(locatePointInRing([5, 2], diamond)).toBe("outside");
  });
});

describe("ringIsCounterClockwise", () => {
  it("tells the two windings apart", () => {
    const ccw: Point[] = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ];
    expect(ringIsCounterClockwise(ccw)).toBe(true);
    expect(ringIsCounterClockwise([...ccw].reverse())).toBe(false);
  });

  it("is right for a concave ring whose lowest vertex is not the first", () => {
    const arrow: Point[] = [
      [2, 3],
      [0, 4],
      [1, 0],
      [4, 4],
      [2, 3],
    ];
    const shoelace = arrow.slice(1).reduce((sum, b, i) => {
      const a = arrow[i] ?? b;
      return sum + a[0] * b[1] - b[0] * a[1];
    }, 0);
    expect(ringIsCounterClockwise(arrow)).toBe(shoelace > 0);
  });
});

describe("forEachOverlappingBoxPair", () => {
  it("visits exactly the pairs a brute-force scan finds", () => {
    // Deterministic pseudo-random boxes (LCG) so failures are reproducible.
    let seed = 12345;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const boxes: SegmentBox[] = Array.from({ length: 200 }, () => segmentBox([next() * 10, next() * 10], [next() * 10, next() * 10]));
    const overlaps = (a: SegmentBox, b: SegmentBox): boolean => a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
    const expected = new Set<string>();
    boxes.forEach((a, i) =>
      boxes.forEach((b, j) => {
        if (i < j && overlaps(a, b)) expected.add(`${i}:${j}`);
      }),
    );
    const visited = new Set<string>();
    forEachOverlappingBoxPair(boxes, (i, j) => {
      expect(i).toBeLessThan(j);
      visited.add(`${i}:${j}`);
    });
    expect(visited).toEqual(expected);
    expect(expected.size).toBeGreaterThan(0);
  });

  it("includes boxes that only touch, and stops when asked to", () => {
    const boxes = [segmentBox([0, 0], [1, 1]), segmentBox([1, 1], [2, 2]), segmentBox([0, 0], [2, 2])];
    const visited: string[] = [];
    forEachOverlappingBoxPair(boxes, (i, j) => {
      visited.push(`${i}:${j}`);
    });
    expect(visited.sort()).toEqual(["0:1", "0:2", "1:2"]);
    let calls = 0;
    forEachOverlappingBoxPair(boxes, () => {
      calls++;
      return false;
    });
    expect(calls).toBe(1);
  });
});
