// Mission bounds validation through the API: every bad polygon is a 422 whose errors[] points at the
// offending member, on create and on change, and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mission } from "@/lib/schemas/mission";
import { expectProblem } from "./assertions";
import { TestClient, square } from "./client";
import { startTestService, type TestService } from "./harness";

type Pos = [number, number];

const A: Pos = [11.255, 43.768];
const B: Pos = [11.26, 43.768];
const C: Pos = [11.26, 43.773];
const D: Pos = [11.255, 43.773];
const polygon = (...rings: unknown[][]) => ({ type: "Polygon", coordinates: rings });

/** A closed ring of `vertices` distinct vertices on a circle (radius in degrees). */
function circle(vertices: number, radius = 0.01, [lng, lat]: Pos = A): Pos[] {
  const ring: Pos[] = [];
  for (let i = 0; i < vertices; i++) {
    const angle = (2 * Math.PI * i) / vertices;
    ring.push([Number((lng + radius * Math.cos(angle)).toFixed(6)), Number((lat + radius * Math.sin(angle)).toFixed(6))]);
  }
  const first = ring[0];
  if (first) ring.push([...first]);
  return ring;
}

interface GeometryCase {
  name: string;
  bounds: unknown;
  /** The problem's `code`: geometry rules answer invalid_geometry, schema (shape) errors validation_failed. */
  code: "invalid_geometry" | "validation_failed";
  /** Where errors[] must point. */
  pointer: string;
  /** The errors[] entry's own code, for geometry rules. */
  issue?: string;
}

const CASES: GeometryCase[] = [
  { name: "unclosed ring", bounds: polygon([A, B, C, D]), code: "invalid_geometry", pointer: "/bounds/coordinates/0/3", issue: "ring_not_closed" },
  { name: "ring of 3 positions", bounds: polygon([A, B, A]), code: "invalid_geometry", pointer: "/bounds/coordinates/0", issue: "ring_too_short" },
  {
    name: "longitude 181",
    bounds: polygon([A, [181, 43.768], C, D, A]),
    code: "invalid_geometry",
    pointer: "/bounds/coordinates/0/1/0",
    issue: "out_of_range",
  },
  {
    name: "latitude −91",
    bounds: polygon([A, B, [11.26, -91], D, A]),
    code: "invalid_geometry",
    pointer: "/bounds/coordinates/0/2/1",
    issue: "out_of_range",
  },
  {
    name: "bowtie self-intersection",
    bounds: polygon([A, C, B, D, A]),
    code: "invalid_geometry",
    pointer: "/bounds/coordinates/0/0",
    issue: "self_intersection",
  },
  {
    name: "hole outside the exterior ring",
    bounds: polygon(square().coordinates[0] ?? [], [
      [11.3, 43.8],
      [11.3, 43.801],
      [11.301, 43.801],
      [11.301, 43.8],
      [11.3, 43.8],
    ]),
    code: "invalid_geometry",
    pointer: "/bounds/coordinates/1",
    issue: "hole_outside",
  },
  {
    name: "hole crossing the exterior ring",
    bounds: polygon(square().coordinates[0] ?? [], [
      [11.257, 43.77],
      [11.257, 43.78],
      [11.258, 43.78],
      [11.258, 43.77],
      [11.257, 43.77],
    ]),
    code: "invalid_geometry",
    pointer: "/bounds/coordinates/1/0",
    issue: "ring_intersection",
  },
  // The total over all rings is the geometry's check; one ring past the cap is already refused by
  // the schema (its maxItems is in the OpenAPI document), pointing at that ring.
  {
    name: "1001 vertices over two rings",
    bounds: polygon(circle(600, 0.02), circle(401, 0.005)),
    code: "invalid_geometry",
    pointer: "/bounds/coordinates",
    issue: "too_many_vertices",
  },
  { name: "1001 vertices in one ring", bounds: polygon(circle(1001)), code: "validation_failed", pointer: "/bounds/coordinates/0" },
  {
    name: "area too large (1°×1° at the equator)",
    bounds: square(10, 0, 1),
    code: "invalid_geometry",
    pointer: "/bounds/coordinates",
    issue: "area_too_large",
  },
  {
    name: "area too small (about 4 m × 5.5 m)",
    bounds: square(11.255, 43.768, 0.00005),
    code: "invalid_geometry",
    pointer: "/bounds/coordinates",
    issue: "area_too_small",
  },
  {
    name: "ring spanning the antimeridian",
    bounds: polygon([
      [179.9, 0],
      [-179.9, 0],
      [-179.9, 0.1],
      [179.9, 0.1],
      [179.9, 0],
    ]),
    code: "invalid_geometry",
    pointer: "/bounds/coordinates/0",
    issue: "antimeridian",
  },
  {
    name: "duplicate consecutive vertex",
    bounds: polygon([A, B, B, C, D, A]),
    code: "invalid_geometry",
    pointer: "/bounds/coordinates/0/2",
    issue: "duplicate_vertex",
  },
  { name: "a Point", bounds: { type: "Point", coordinates: A }, code: "validation_failed", pointer: "/bounds/type" },
  { name: "a MultiPolygon", bounds: { type: "MultiPolygon", coordinates: [[[A, B, C, D, A]]] }, code: "validation_failed", pointer: "/bounds/type" },
  { name: "a Feature", bounds: { type: "Feature", geometry: square(), properties: {} }, code: "validation_failed", pointer: "/bounds/type" },
  {
    name: "coordinates of strings",
    bounds: polygon([A, B, C, D, A].map(([x, y]) => [String(x), String(y)])),
    code: "validation_failed",
    pointer: "/bounds/coordinates/0/0/0",
  },
  { name: "a position of one number", bounds: polygon([A, [11.26], C, D, A]), code: "validation_failed", pointer: "/bounds/coordinates/0/1" },
  { name: "no rings", bounds: polygon(), code: "validation_failed", pointer: "/bounds/coordinates" },
];

let service: TestService;
let api: TestClient;
/** Creates (or fails to create) missions. */
let postToken: string;
/** Changes the target mission and reads it back (a second client of the same organisation). */
let patchToken: string;
let target: Mission;
let missionsBefore: number;

const countMissions = async () => (await api.request<{ meta: { total: number } }>("GET", "/api/v1/missions?status=all", { token: postToken })).body.meta.total;

beforeAll(async () => {
  // Three requests a case, all from one organisation (whose clients share its limit): the limits
  // have their own suite.
  service = await startTestService({ rateLimit: { perMinute: 10_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } });
  api = new TestClient(service);
  const partner = await api.partner();
  postToken = partner.token;
  patchToken = await api.token(await api.createClient(partner.orgId, ["missions:read", "missions:write"]));
  target = await api.createMission(patchToken, { title: "Geometry target" });
  missionsBefore = await countMissions();
});
afterAll(() => service.close());

function expectGeometryProblem(res: Awaited<ReturnType<TestClient["request"]>>, c: GeometryCase) {
  const problem = expectProblem(res, 422, c.code);
  const entry = (problem.errors ?? []).find((e) => e.pointer === c.pointer);
  expect(entry, `errors[] has ${c.pointer}: ${JSON.stringify(problem.errors)}`).toBeDefined();
  expect(entry?.message.length).toBeGreaterThan(0);
  if (c.issue) expect(entry?.code).toBe(c.issue);
}

describe("bad bounds", () => {
  it("the valid polygon the cases are built from is accepted (the control)", async () => {
    const res = await api.request("POST", "/api/v1/missions", {
      token: postToken,
      body: { title: "Control", bounds: polygon([A, B, C, D, A]), required_images: 1 },
    });
    expect(res.status, res.text).toBe(201);
    missionsBefore += 1;
  });

  it.each(CASES)("$name → 422 $code at $pointer, on POST and on PATCH", async (c) => {
    const created = await api.request("POST", "/api/v1/missions", { token: postToken, body: { title: c.name, bounds: c.bounds, required_images: 1 } });
    expectGeometryProblem(created, c);

    const changed = await api.request("PATCH", `/api/v1/missions/${target.id}`, { token: patchToken, body: { bounds: c.bounds } });
    expectGeometryProblem(changed, c);
    const after = await api.request<Mission>("GET", `/api/v1/missions/${target.id}`, { token: patchToken });
    expect(after.body).toEqual(target);
  });

  it("no failed POST created a mission", async () => {
    expect(await countMissions()).toBe(missionsBefore);
  });
});
