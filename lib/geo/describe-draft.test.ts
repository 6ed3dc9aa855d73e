import { describe, expect, it } from "vitest";

import { describeDraft, formatArea } from "./describe-draft";
import { DEFAULT_POLYGON_LIMITS, type PolygonGeometry, type Position } from "./polygon";

function polygon(...rings: Position[][]): PolygonGeometry {
  return { type: "Polygon", coordinates: rings };
}

/** About 800 m × 1.1 km in Florence. */
const FLORENCE: Position[] = [
  [11.24, 43.76],
  [11.25, 43.76],
  [11.25, 43.77],
  [11.24, 43.77],
  [11.24, 43.76],
];

describe("formatArea", () => {
  it("picks m², ha or km² by size", () => {
    expect(formatArea(0)).toBe("0 m²");
    expect(formatArea(950.4)).toBe("950 m²");
    expect(formatArea(9_999)).toBe("9,999 m²");
    expect(formatArea(10_000)).toBe("1 ha");
    expect(formatArea(123_456)).toBe("12.3 ha");
    expect(formatArea(999_000)).toBe("99.9 ha");
    expect(formatArea(1_000_000)).toBe("1 km²");
    expect(formatArea(3_254_000)).toBe("3.25 km²");
    expect(formatArea(48_240_000)).toBe("48.2 km²");
    expect(formatArea(2_500_000_000)).toBe("2,500 km²");
  });

  it("never shows a negative area", () => {
    expect(formatArea(-5)).toBe("0 m²");
  });
});

describe("describeDraft", () => {
  it("accepts a valid polygon with its area and vertex count", () => {
    const description = describeDraft(polygon(FLORENCE));
    expect(description.valid).toBe(true);
    expect(description.issues).toEqual([]);
    expect(description.vertexCount).toBe(4);
    expect(description.areaM2).toBeGreaterThan(880_000);
    expect(description.areaM2).toBeLessThan(900_000);
  });

  it("names the crossing edges of a bow-tie with 1-based vertex numbers", () => {
    // Vertices 1..4; edge 1→2 crosses edge 3→4.
    const bowtie = polygon([
      [11.24, 43.76],
      [11.25, 43.77],
      [11.25, 43.76],
      [11.24, 43.77],
      [11.24, 43.76],
    ]);
    const description = describeDraft(bowtie);
    expect(description.valid).toBe(false);
    expect(description.areaM2).toBeNull();
    expect(description.vertexCount).toBe(4);
    expect(description.issues).toHaveLength(1);
    const [issue] = description.issues;
    expect(issue?.code).toBe("self_intersection");
    expect(issue?.message).toBe("The outline crosses itself: the edge from vertex 1 to 2 crosses the edge from vertex 3 to 4.");
    expect(issue?.vertices).toEqual([0, 1, 2, 3]);
  });

  it("numbers the closing vertex as vertex 1", () => {
    // The bow-tie again, starting one vertex later: the closing edge (vertex 4 back to 1) crosses edge 2→3.
    const ring: Position[] = [
      [11.25, 43.77],
      [11.25, 43.76],
      [11.24, 43.77],
      [11.24, 43.76],
      [11.25, 43.77],
    ];
    const [issue] = describeDraft(polygon(ring)).issues;
    expect(issue?.code).toBe("self_intersection");
    expect(issue?.message).toBe("The outline crosses itself: the edge from vertex 2 to 3 crosses the edge from vertex 4 to 1.");
    expect([...(issue?.vertices ?? [])].sort()).toEqual([0, 1, 2, 3]);
  });

  it("explains an area over the API's limit with both figures", () => {
    const huge = polygon([
      [10, 43],
      [11, 43],
      [11, 44],
      [10, 44],
      [10, 43],
    ]);
    const description = describeDraft(huge);
    expect(description.valid).toBe(false);
    expect(description.areaM2).toBeGreaterThan(DEFAULT_POLYGON_LIMITS.maxAreaM2);
    expect(description.issues.map((issue) => issue.code)).toEqual(["area_too_large"]);
    expect(description.issues[0]?.message).toMatch(/^The area is too large: 8,\d{3} km² \(the limit is 2,500 km²\)\.$/);
  });

  it("explains an area under the minimum", () => {
    const tiny = polygon([
      [11.24, 43.76],
      [11.24005, 43.76],
      [11.24005, 43.76005],
      [11.24, 43.76],
    ]);
    const description = describeDraft(tiny);
    expect(description.issues.map((issue) => issue.code)).toEqual(["area_too_small"]);
    expect(description.issues[0]?.message).toMatch(/^The area is too small: \d+ m² \(the minimum is 100 m²\)\.$/);
    expect(description.areaM2).toBeGreaterThan(0);
  });

  it("counts vertices against the limit it is given", () => {
    const description = describeDraft(polygon(FLORENCE), { ...DEFAULT_POLYGON_LIMITS, maxVertices: 3 });
    expect(description.issues.map((issue) => issue.code)).toEqual(["too_many_vertices"]);
    expect(description.issues[0]?.message).toBe("Too many vertices: 4 (the limit is 3). Simplify the outline.");
  });

  it("points at a repeated vertex", () => {
    const repeated = polygon([
      [11.24, 43.76],
      [11.25, 43.76],
      [11.25, 43.76],
      [11.25, 43.77],
      [11.24, 43.76],
    ]);
    const [issue] = describeDraft(repeated).issues;
    expect(issue?.code).toBe("duplicate_vertex");
    expect(issue?.message).toBe("Vertex 3 of the outline repeats vertex 2; remove one of them.");
    expect(issue?.vertices).toEqual([2]);
  });

  it("asks for three vertices when the ring is too short", () => {
    const line = polygon([
      [11.24, 43.76],
      [11.25, 43.76],
      [11.24, 43.76],
    ]);
    const description = describeDraft(line);
    expect(description.valid).toBe(false);
    expect(description.areaM2).toBeNull();
    expect(description.issues.map((issue) => issue.message)).toContain("The outline needs at least 3 vertices.");
  });
});
