import { describe, it, expect } from "vitest";

import {
  DEFAULT_POLYGON_LIMITS,
  normaliseWinding,
  polygonAreaM2,
  polygonBbox,
  validatePolygon,
  type GeometryIssue,
  type PolygonGeometry,
  type PolygonResult,
  type Position,
} from "./polygon";

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/** ~1.1 km × 0.8 km near Siena, counter-clockwise. */
const SIENA_SQUARE: Position[] = [
  [11.88, 43.46],
  [11.89, 43.46],
  [11.89, 43.47],
  [11.88, 43.47],
  [11.88, 43.46],
];

function polygon(...rings: Position[][]): PolygonGeometry {
  return { type: "Polygon", coordinates: rings };
}

/** Axis-aligned closed ring, counter-clockwise. */
function box(minLng: number, minLat: number, maxLng: number, maxLat: number): Position[] {
  return [
    [minLng, minLat],
    [maxLng, minLat],
    [maxLng, maxLat],
    [minLng, maxLat],
    [minLng, minLat],
  ];
}

/** Closed ring approximating a circle, counter-clockwise, with `vertices` distinct vertices. */
function circle(vertices: number, center: Position = [11.88, 43.46], radiusDeg = 0.02): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < vertices; i++) {
    const angle = (2 * Math.PI * i) / vertices;
    ring.push([center[0] + radiusDeg * Math.cos(angle), center[1] + radiusDeg * Math.sin(angle)]);
  }
  const first = ring[0];
  if (first === undefined) throw new Error("circle needs at least one vertex");
  ring.push([first[0], first[1]]);
  return ring;
}

/** Planar signed area in lng/lat: positive means counter-clockwise. Independent of the module under test. */
function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const a = ring[i];
    const b = ring[i + 1];
    if (a !== undefined && b !== undefined) sum += a[0] * b[1] - b[0] * a[1];
  }
  return sum / 2;
}

/** Grid-paper drawings scaled into a small area near Siena, so they pass the area limits. */
function nearSiena(points: [number, number][], stepDeg = 0.001): Position[] {
  return points.map(([x, y]): Position => [11.88 + x * stepDeg, 43.46 + y * stepDeg]);
}

function issuesOf(result: PolygonResult): GeometryIssue[] {
  if (result.ok) throw new Error(`expected validation to fail, but it succeeded`);
  return result.issues;
}

function expectSingleIssue(result: PolygonResult, code: GeometryIssue["code"], pointer: string): GeometryIssue {
  const issues = issuesOf(result);
  expect(issues.map((issue) => [issue.code, issue.pointer])).toEqual([[code, pointer]]);
  const [issue] = issues;
  if (issue === undefined) throw new Error("unreachable");
  expect(issue.message.length).toBeGreaterThan(0);
  return issue;
}

function expectOk(result: PolygonResult): Extract<PolygonResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.issues)}`);
  return result;
}

// ---------------------------------------------------------------------------
// Success path
// ---------------------------------------------------------------------------

describe("validatePolygon: valid input", () => {
  it("accepts a square near Siena with the geodesic area within 1% of the hand-computed value", () => {
    const result = expectOk(validatePolygon(polygon(SIENA_SQUARE)));
    // Area of a lng/lat quadrangle on the WGS 84 ellipsoid (authalic formula):
    //   A = b²·Δλ/2 · [q(φ2) − q(φ1)],  q(φ) = sinφ/(1 − e²sin²φ) + ln((1 + e·sinφ)/(1 − e·sinφ))/(2e)
    // with Δλ = 0.01°, φ1 = 43.46°, φ2 = 43.47° gives 899,073 m².
    // (The sphere R = 6,371,008.8 m gives R²·Δλ·(sinφ2 − sinφ1) = 897,398 m².)
    const expected = 899_073;
    expect(Math.abs(result.areaM2 - expected) / expected).toBeLessThan(0.01);
    expect(result.vertexCount).toBe(4);
    expect(result.bbox).toEqual([11.88, 43.46, 11.89, 43.47]);
    expect(result.polygon).toEqual(polygon(SIENA_SQUARE));
  });

  it("accepts a triangle (4 positions, closed)", () => {
    const triangle: Position[] = [
      [11.88, 43.46],
      [11.89, 43.46],
      [11.885, 43.47],
      [11.88, 43.46],
    ];
    const result = expectOk(validatePolygon(polygon(triangle)));
    expect(result.vertexCount).toBe(3);
    expect(result.polygon.coordinates).toEqual([triangle]);
  });

  it("returns a clockwise exterior counter-clockwise and a counter-clockwise hole clockwise", () => {
    const clockwiseExterior = [...box(11.88, 43.46, 11.9, 43.48)].reverse();
    const counterClockwiseHole = box(11.885, 43.465, 11.895, 43.475);
    expect(signedArea(clockwiseExterior)).toBeLessThan(0);
    expect(signedArea(counterClockwiseHole)).toBeGreaterThan(0);

    const result = expectOk(validatePolygon(polygon(clockwiseExterior, counterClockwiseHole)));
    const [exterior, hole] = result.polygon.coordinates;
    if (exterior === undefined || hole === undefined) throw new Error("expected two rings");
    expect(signedArea(exterior)).toBeGreaterThan(0);
    expect(signedArea(hole)).toBeLessThan(0);
    // Same vertices, still closed.
    expect(new Set(exterior.map(String))).toEqual(new Set(clockwiseExterior.map(String)));
    expect(exterior[0]).toEqual(exterior[exterior.length - 1]);
    expect(result.vertexCount).toBe(8);
  });

  it("subtracts holes from the area", () => {
    const withoutHole = expectOk(validatePolygon(polygon(box(11.88, 43.46, 11.9, 43.48))));
    const withHole = expectOk(validatePolygon(polygon(box(11.88, 43.46, 11.9, 43.48), box(11.885, 43.465, 11.895, 43.475))));
    // The hole is half the width and half the height: a quarter of the area.
    expect(withHole.areaM2 / withoutHole.areaM2).toBeCloseTo(0.75, 2);
  });

  it("preserves altitude", () => {
    const ring: Position[] = [
      [11.88, 43.46, 320],
      [11.88, 43.47, 335.5],
      [11.89, 43.47, 340],
      [11.89, 43.46, 310],
      [11.88, 43.46, 320],
    ];
    const result = expectOk(validatePolygon(polygon(ring)));
    const exterior = result.polygon.coordinates[0] ?? [];
    // Input was clockwise, so it comes back reversed, each altitude staying with its lng/lat.
    expect(exterior).toEqual([...ring].reverse());
    expect(exterior.every((position) => position.length === 3)).toBe(true);
  });

  it("does not mutate the input and shares no arrays with it", () => {
    const input = {
      type: "Polygon",
      coordinates: [[...box(11.88, 43.46, 11.9, 43.48)].reverse(), box(11.885, 43.465, 11.895, 43.475)],
      bbox: [11.88, 43.46, 11.9, 43.48],
    };
    const snapshot = structuredClone(input);
    const result = expectOk(validatePolygon(input));
    expect(input).toEqual(snapshot);
    expect(result.polygon.coordinates).not.toBe(input.coordinates);
    expect(result.polygon.coordinates[0]?.[0]).not.toBe(input.coordinates[0]?.[0]);
    const outputPosition = result.polygon.coordinates[1]?.[0];
    if (outputPosition === undefined) throw new Error("expected a hole in the output");
    outputPosition[0] = 0;
    expect(input).toEqual(snapshot);
  });

  it("drops extra members such as bbox from the output", () => {
    const result = expectOk(
      validatePolygon({
        type: "Polygon",
        coordinates: [SIENA_SQUARE],
        bbox: [0, 0, 1, 1],
        crs: "x",
      }),
    );
    expect(Object.keys(result.polygon).sort()).toEqual(["coordinates", "type"]);
  });

  it("accepts exactly maxVertices vertices", () => {
    const result = expectOk(validatePolygon(polygon(circle(1000))));
    expect(result.vertexCount).toBe(1000);
  });

  it("accepts a concave ring and a hole touching nothing", () => {
    const concave: Position[] = [
      [11.88, 43.46],
      [11.9, 43.46],
      [11.9, 43.48],
      [11.89, 43.47], // notch
      [11.88, 43.48],
      [11.88, 43.46],
    ];
    expect(validatePolygon(polygon(concave)).ok).toBe(true);
  });
});

// ---------------------------------------------------------------------------
// Structure
// ---------------------------------------------------------------------------

describe("validatePolygon: not_polygon", () => {
  it("refuses non-objects at the base pointer", () => {
    expectSingleIssue(validatePolygon(null), "not_polygon", "");
    expectSingleIssue(validatePolygon([SIENA_SQUARE], { basePointer: "/bounds" }), "not_polygon", "/bounds");
  });

  it("points at /type for the wrong type, with a hint for Features", () => {
    expectSingleIssue(validatePolygon({ type: "MultiPolygon", coordinates: [[SIENA_SQUARE]] }), "not_polygon", "/type");
    const issue = expectSingleIssue(validatePolygon({ type: "Feature", coordinates: [SIENA_SQUARE] }), "not_polygon", "/type");
    expect(issue.message).toMatch(/geometry/);
  });

  it("points at /coordinates when they are missing or empty", () => {
    expectSingleIssue(validatePolygon({ type: "Polygon" }), "not_polygon", "/coordinates");
    expectSingleIssue(validatePolygon({ type: "Polygon", coordinates: [] }), "not_polygon", "/coordinates");
  });

  it("reports both /type and /coordinates when both are wrong", () => {
    const issues = issuesOf(validatePolygon({ type: "Point", coordinates: "nope" }));
    expect(issues.map((issue) => issue.pointer)).toEqual(["/type", "/coordinates"]);
  });

  it("points at a ring that is not an array", () => {
    expectSingleIssue(validatePolygon({ type: "Polygon", coordinates: [SIENA_SQUARE, 7] }), "not_polygon", "/coordinates/1");
  });
});

describe("validatePolygon: positions", () => {
  it("reports bad_position at the position when it is not a 2–3 number array", () => {
    const ring: unknown[] = [...SIENA_SQUARE];
    ring[2] = [11.89];
    expectSingleIssue(validatePolygon({ type: "Polygon", coordinates: [ring] }), "bad_position", "/coordinates/0/2");
    ring[2] = [11.89, 43.47, 1, 2];
    expectSingleIssue(validatePolygon({ type: "Polygon", coordinates: [ring] }), "bad_position", "/coordinates/0/2");
    ring[2] = "11.89,43.47";
    expectSingleIssue(validatePolygon({ type: "Polygon", coordinates: [ring] }), "bad_position", "/coordinates/0/2");
  });

  it("reports bad_position at the exact member when a number is not finite", () => {
    const ring: unknown[] = [...SIENA_SQUARE];
    ring[1] = [11.89, "43.46"];
    expectSingleIssue(validatePolygon({ type: "Polygon", coordinates: [ring] }), "bad_position", "/coordinates/0/1/1");
    ring[1] = [Number.NaN, 43.46];
    expectSingleIssue(validatePolygon({ type: "Polygon", coordinates: [ring] }), "bad_position", "/coordinates/0/1/0");
    ring[1] = [11.89, 43.46, Number.POSITIVE_INFINITY];
    expectSingleIssue(validatePolygon({ type: "Polygon", coordinates: [ring] }), "bad_position", "/coordinates/0/1/2");
  });

  it("reports out_of_range at the longitude or latitude itself", () => {
    const badLongitude: Position[] = [
      [179, 43],
      [180.5, 43.5],
      [179.5, 44],
      [179, 43],
    ];
    expectSingleIssue(validatePolygon(polygon(badLongitude)), "out_of_range", "/coordinates/0/1/0");
    const badLatitude: Position[] = [
      [11, 89],
      [12, 89],
      [11.5, 90.01],
      [11, 89],
    ];
    expectSingleIssue(validatePolygon(polygon(badLatitude)), "out_of_range", "/coordinates/0/2/1");
  });

  it("accepts the exact limits ±180 and ±90 as in range", () => {
    // 1° × 1° cells at the poles are ~108 km², well within the area limits.
    expect(validatePolygon(polygon(box(179, 89, 180, 90))).ok).toBe(true);
    expect(validatePolygon(polygon(box(-180, -90, -179, -89))).ok).toBe(true);
  });

  it("collects every position-level issue in one pass, in document order", () => {
    const ring: unknown[] = [
      [11.88, 43.46],
      [200, 43.46],
      [11.89, -95],
      [11.88, null],
      [11.88, 43.46],
    ];
    const issues = issuesOf(validatePolygon({ type: "Polygon", coordinates: [ring] }, { basePointer: "/bounds" }));
    expect(issues.map((issue) => [issue.code, issue.pointer])).toEqual([
      ["out_of_range", "/bounds/coordinates/0/1/0"],
      ["out_of_range", "/bounds/coordinates/0/2/1"],
      ["bad_position", "/bounds/coordinates/0/3/1"],
    ]);
  });

  it("caps the number of issues reported", () => {
    const ring: unknown[] = Array.from({ length: 300 }, () => [500, 500]);
    const issues = issuesOf(validatePolygon({ type: "Polygon", coordinates: [ring] }));
    expect(issues).toHaveLength(100);
  });
});

describe("validatePolygon: rings", () => {
  it("reports ring_too_short at the ring", () => {
    const ring: Position[] = [
      [11.88, 43.46],
      [11.89, 43.46],
      [11.88, 43.46],
    ];
    expectSingleIssue(validatePolygon(polygon(ring)), "ring_too_short", "/coordinates/0");
    expectSingleIssue(validatePolygon(polygon(SIENA_SQUARE, [])), "ring_too_short", "/coordinates/1");
  });

  it("reports ring_not_closed at the last position", () => {
    const open = SIENA_SQUARE.slice(0, 4);
    expectSingleIssue(validatePolygon(polygon(open)), "ring_not_closed", "/coordinates/0/3");
  });

  it("requires the closing position to repeat the first exactly, altitude included", () => {
    const ring: Position[] = [
      [11.88, 43.46, 10],
      [11.89, 43.46, 10],
      [11.89, 43.47, 10],
      [11.88, 43.46, 11],
    ];
    expectSingleIssue(validatePolygon(polygon(ring)), "ring_not_closed", "/coordinates/0/3");
  });

  it("reports duplicate_vertex at the second of the pair instead of dropping it", () => {
    const ring: Position[] = [
      [11.88, 43.46],
      [11.89, 43.46],
      [11.89, 43.46],
      [11.89, 43.47],
      [11.88, 43.47],
      [11.88, 43.46],
    ];
    expectSingleIssue(validatePolygon(polygon(ring)), "duplicate_vertex", "/coordinates/0/2");
  });

  it("treats positions differing only in altitude as duplicates", () => {
    const ring: Position[] = [
      [11.88, 43.46, 5],
      [11.89, 43.46, 5],
      [11.89, 43.47, 5],
      [11.89, 43.47, 9],
      [11.88, 43.47, 5],
      [11.88, 43.46, 5],
    ];
    expectSingleIssue(validatePolygon(polygon(ring)), "duplicate_vertex", "/coordinates/0/3");
  });

  it("reports a duplicate of the closing position", () => {
    const ring: Position[] = [...SIENA_SQUARE, [11.88, 43.46]];
    expectSingleIssue(validatePolygon(polygon(ring)), "duplicate_vertex", "/coordinates/0/5");
  });

  it("refuses a ring spanning more than 180° of longitude as antimeridian", () => {
    // Meant as a small box across the antimeridian, but read literally it spans 340°.
    expectSingleIssue(validatePolygon(polygon(box(-170, -10, 170, 10))), "antimeridian", "/coordinates/0");
  });

  it("allows a ring spanning exactly 180° of longitude (only the area limit objects)", () => {
    const result = validatePolygon(polygon(box(-90, 0, 90, 1)));
    expect(issuesOf(result).map((issue) => issue.code)).toEqual(["area_too_large"]);
  });

  it("does not run topology checks when structure is invalid", () => {
    const bowtieWithBadLatitude: Position[] = [
      [11.88, 43.46],
      [11.89, 43.47],
      [11.89, 91],
      [11.88, 43.47],
      [11.88, 43.46],
    ];
    const issues = issuesOf(validatePolygon(polygon(bowtieWithBadLatitude)));
    expect(issues.map((issue) => issue.code)).toEqual(["out_of_range"]);
  });
});

// ---------------------------------------------------------------------------
// Vertex count
// ---------------------------------------------------------------------------

describe("validatePolygon: too_many_vertices", () => {
  it("refuses 1001 vertices at /coordinates", () => {
    const issue = expectSingleIssue(validatePolygon(polygon(circle(1001))), "too_many_vertices", "/coordinates");
    expect(issue.message).toContain("1001");
    expect(issue.message).toContain("1000");
  });

  it("counts vertices across all rings", () => {
    const exterior = circle(600, [11.88, 43.46], 0.05);
    const hole = circle(401, [11.88, 43.46], 0.01);
    expectSingleIssue(validatePolygon(polygon(exterior, hole)), "too_many_vertices", "/coordinates");
    expect(validatePolygon(polygon(exterior, circle(400, [11.88, 43.46], 0.01))).ok).toBe(true);
  });

  it("is reported before, and instead of, topology problems", () => {
    // A self-crossing zig-zag that is also too big: only the cheap issue comes back.
    const zigzag: Position[] = [];
    for (let i = 0; i < 1200; i++) zigzag.push([11 + (i % 2) * 0.01, 43 + i * 0.0001]);
    zigzag.push([11.005, 42.9], [11, 43]);
    const issues = issuesOf(validatePolygon(polygon(zigzag)));
    expect(issues.map((issue) => issue.code)).toEqual(["too_many_vertices"]);
  });

  it("honours a custom limit and ignores explicitly undefined overrides", () => {
    expectSingleIssue(validatePolygon(polygon(SIENA_SQUARE), { limits: { maxVertices: 3 } }), "too_many_vertices", "/coordinates");
    expect(
      validatePolygon(polygon(SIENA_SQUARE), {
        limits: { maxVertices: undefined },
      }).ok,
    ).toBe(true);
  });
});

// ---------------------------------------------------------------------------
// Topology
// ---------------------------------------------------------------------------

describe("validatePolygon: self_intersection", () => {
  it("refuses a bowtie, pointing at the first crossing edge and naming both edges", () => {
    const bowtie: Position[] = [
      [11.88, 43.46],
      [11.89, 43.47],
      [11.89, 43.46],
      [11.88, 43.47],
      [11.88, 43.46],
    ];
    const issue = expectSingleIssue(validatePolygon(polygon(bowtie), { basePointer: "/bounds" }), "self_intersection", "/bounds/coordinates/0/0");
    expect(issue.message).toBe("edge 0–1 crosses edge 2–3 of the same ring");
  });

  it("names edges by position index further along the ring", () => {
    // The closing edge 5–6 cuts back across edge 2–3.
    const ring = nearSiena([
      [0, 0],
      [4, 0],
      [4, 2],
      [1, 2],
      [1, 4],
      [3, 4],
      [0, 0],
    ]);
    const issue = expectSingleIssue(validatePolygon(polygon(ring)), "self_intersection", "/coordinates/0/2");
    expect(issue.message).toBe("edge 2–3 crosses edge 5–6 of the same ring");
  });

  it("refuses a ring touching itself at a vertex (figure eight)", () => {
    const figureEight = nearSiena([
      [0, 0],
      [2, 0],
      [1, 1],
      [2, 2],
      [0, 2],
      [1, 1],
      [0, 0],
    ]);
    const issues = issuesOf(validatePolygon(polygon(figureEight)));
    expect(issues.map((issue) => [issue.code, issue.pointer])).toEqual([
      ["self_intersection", "/coordinates/0/1"],
      ["self_intersection", "/coordinates/0/1"],
      ["self_intersection", "/coordinates/0/2"],
      ["self_intersection", "/coordinates/0/2"],
    ]);
    expect(issues.every((issue) => issue.message.includes("touches"))).toBe(true);
  });

  it("refuses a spike where the ring doubles back along itself", () => {
    const spike: Position[] = [
      [11.88, 43.46],
      [11.9, 43.46],
      [11.89, 43.46], // back along edge 0–1
      [11.89, 43.47],
      [11.88, 43.46],
    ];
    const issues = issuesOf(validatePolygon(polygon(spike)));
    expect(issues[0]).toMatchObject({
      code: "self_intersection",
      pointer: "/coordinates/0/0",
    });
    expect(issues[0]?.message).toContain("overlaps");
  });

  it("treats collinear overlap between non-adjacent edges as an intersection", () => {
    const ring = nearSiena([
      [0, 0],
      [4, 0],
      [4, 2],
      [3, 2],
      [3, 0], // edge 4–5 runs back along edge 0–1
      [1, 0],
      [0, 2],
      [0, 0],
    ]);
    const issues = issuesOf(validatePolygon(polygon(ring)));
    expect(issues.map((issue) => issue.code)).toContain("self_intersection");
    expect(issues.some((issue) => issue.pointer === "/coordinates/0/0" && issue.message.includes("overlaps edge 4–5"))).toBe(true);
  });

  it("decides exactly for a vertex two ulps either side of an edge", () => {
    // Vertex 3 sits two ulps (2^-48 at 11.9) left of edge 1–2, then two ulps
    // right of it, where edge 3–4 must cross edge 1–2.
    const x = 11.9;
    const nudged = x - 2 ** -48;
    const ring: Position[] = [
      [11.88, 43.46],
      [x, 43.46],
      [x, 43.48],
      [nudged, 43.47],
      [11.88, 43.46],
    ];
    expect(validatePolygon(polygon(ring)).ok).toBe(true);
    const crossing: Position[] = [
      [11.88, 43.46],
      [x, 43.46],
      [x, 43.48],
      [x + 2 ** -48, 43.47],
      [11.88, 43.46],
    ];
    const issue = expectSingleIssue(validatePolygon(polygon(crossing)), "self_intersection", "/coordinates/0/1");
    expect(issue.message).toBe("edge 1–2 crosses edge 3–4 of the same ring");
  });
});

describe("validatePolygon: ring_intersection and hole_outside", () => {
  const exterior = box(11.88, 43.46, 11.9, 43.48);

  it("refuses a hole crossing the exterior, pointing at the hole's edge", () => {
    const hole = box(11.885, 43.465, 11.91, 43.475);
    const issues = issuesOf(validatePolygon(polygon(exterior, hole)));
    expect(issues.map((issue) => [issue.code, issue.pointer])).toEqual([
      ["ring_intersection", "/coordinates/1/0"],
      ["ring_intersection", "/coordinates/1/2"],
    ]);
    expect(issues[0]?.message).toBe("hole 1 edge 0–1 crosses exterior ring edge 1–2; rings must not cross or touch");
  });

  it("refuses a hole touching the exterior at a single point", () => {
    const hole: Position[] = [
      [11.885, 43.465],
      [11.9, 43.47], // on the exterior's east edge
      [11.885, 43.475],
      [11.885, 43.465],
    ];
    const issues = issuesOf(validatePolygon(polygon(exterior, hole)));
    expect(issues.every((issue) => issue.code === "ring_intersection")).toBe(true);
    expect(issues.map((issue) => issue.pointer)).toEqual(["/coordinates/1/0", "/coordinates/1/1"]);
    expect(issues[0]?.message).toContain("touches");
  });

  it("refuses two holes that cross each other", () => {
    const holeA = box(11.882, 43.462, 11.89, 43.47);
    const holeB = box(11.886, 43.466, 11.895, 43.475);
    const issues = issuesOf(validatePolygon(polygon(exterior, holeA, holeB)));
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.every((issue) => issue.code === "ring_intersection" && issue.pointer.startsWith("/coordinates/2/"))).toBe(true);
  });

  it("refuses a hole nested inside another hole", () => {
    const outerHole = box(11.882, 43.462, 11.898, 43.478);
    const innerHole = box(11.886, 43.466, 11.894, 43.474);
    expectSingleIssue(validatePolygon(polygon(exterior, outerHole, innerHole)), "ring_intersection", "/coordinates/2");
  });

  it("reports hole_outside at the ring for a hole entirely outside the exterior", () => {
    const hole = box(11.95, 43.46, 11.96, 43.47);
    const issue = expectSingleIssue(validatePolygon(polygon(exterior, hole)), "hole_outside", "/coordinates/1");
    expect(issue.message).toContain("outside");
  });

  it("reports hole_outside when the hole encloses the exterior", () => {
    const hole = box(11.87, 43.45, 11.91, 43.49);
    expectSingleIssue(validatePolygon(polygon(exterior, hole)), "hole_outside", "/coordinates/1");
  });
});

// ---------------------------------------------------------------------------
// Area
// ---------------------------------------------------------------------------

describe("validatePolygon: area limits", () => {
  it("refuses more than 2,500 km² with the figure in km²", () => {
    // 1° × 1° at the equator ≈ 12,364 km²
    const issue = expectSingleIssue(validatePolygon(polygon(box(10, 0, 11, 1))), "area_too_large", "/coordinates");
    expect(issue.message).toMatch(/^area 12,3\d\d(\.\d+)? km² exceeds the maximum of 2,500 km²$/);
  });

  it("refuses less than 100 m² with the figure in m²", () => {
    // ~5.5 m × 4 m
    const issue = expectSingleIssue(validatePolygon(polygon(box(11.88, 43.46, 11.88005, 43.46005))), "area_too_small", "/coordinates");
    expect(issue.message).toMatch(/^area \d+(\.\d)? m² is below the minimum of 100 m²$/);
  });

  it("honours custom area limits", () => {
    expectSingleIssue(
      validatePolygon(polygon(SIENA_SQUARE), {
        limits: { maxAreaM2: 500_000 },
      }),
      "area_too_large",
      "/coordinates",
    );
    expectSingleIssue(
      validatePolygon(polygon(SIENA_SQUARE), {
        limits: { minAreaM2: 1_000_000 },
      }),
      "area_too_small",
      "/coordinates",
    );
  });

  it("exposes the documented defaults", () => {
    expect(DEFAULT_POLYGON_LIMITS).toEqual({
      maxVertices: 1000,
      maxAreaM2: 2_500_000_000,
      minAreaM2: 100,
    });
  });
});

// ---------------------------------------------------------------------------
// Helpers exported for callers
// ---------------------------------------------------------------------------

describe("normaliseWinding, polygonBbox, polygonAreaM2", () => {
  it("normaliseWinding returns a new object and leaves correctly wound input unchanged in value", () => {
    const input = polygon(SIENA_SQUARE);
    const output = normaliseWinding(input);
    expect(output).not.toBe(input);
    expect(output.coordinates[0]).not.toBe(input.coordinates[0]);
    expect(output).toEqual(input);
  });

  it("normaliseWinding flips a clockwise hole-less exterior without touching the input", () => {
    const clockwise = [...SIENA_SQUARE].reverse();
    const input = polygon(clockwise);
    const output = normaliseWinding(input);
    expect(signedArea(output.coordinates[0] ?? [])).toBeGreaterThan(0);
    expect(signedArea(input.coordinates[0] ?? [])).toBeLessThan(0);
  });

  it("polygonBbox covers every ring", () => {
    expect(polygonBbox(polygon(box(1, 2, 3, 4), box(1.5, 2.5, 2.5, 3.5)))).toEqual([1, 2, 3, 4]);
    expect(
      polygonBbox(
        polygon([
          [-5, 1],
          [7, -3],
          [2, 9],
          [-5, 1],
        ]),
      ),
    ).toEqual([-5, -3, 7, 9]);
  });

  it("polygonAreaM2 does not depend on winding", () => {
    const ccw = polygonAreaM2(polygon(SIENA_SQUARE));
    const cw = polygonAreaM2(polygon([...SIENA_SQUARE].reverse()));
    expect(ccw).toBeGreaterThan(800_000);
    expect(cw).toBeCloseTo(ccw, 6);
  });
});
