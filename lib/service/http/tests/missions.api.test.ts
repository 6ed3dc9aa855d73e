// Missions: create, read, change, cancel and list (filters, paging, ordering), including refusal of
// server-owned fields.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MissionSchema, type Mission } from "@/lib/schemas/mission";
import { expectProblem, pointersOf } from "./assertions";
import { TestClient, square } from "./client";
import { startTestService, type TestService } from "./harness";

interface MissionList {
  data: Mission[];
  meta: { total: number; page: number; per_page: number };
}

let service: TestService;
let api: TestClient;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
});
afterAll(() => service.close());

/** Twice the signed (shoelace) area of a ring in lng/lat: positive when counter-clockwise. */
function signedArea(ring: number[][]): number {
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const [x1 = 0, y1 = 0] = ring[i] ?? [];
    const [x2 = 0, y2 = 0] = ring[i + 1] ?? [];
    sum += x1 * y2 - x2 * y1;
  }
  return sum;
}

/** square() reversed: the same polygon wound clockwise. */
const clockwise = (lng?: number, lat?: number, size?: number) => {
  const polygon = square(lng, lat, size);
  return { ...polygon, coordinates: polygon.coordinates.map((ring) => [...ring].reverse()) };
};

const positionsOf = (ring: number[][]) =>
  ring
    .slice(0, -1)
    .map((p) => p.join(","))
    .sort();

/** Server-owned fields a client must not be able to set, with plausible values. */
const SERVER_OWNED = {
  id: "mission_chosenbytheclient000000000",
  status: "completed",
  submissions: 42,
  org_id: "org_someoneelse",
  created_at: "2000-01-01T00:00:00.000Z",
  approved_images: 7,
};
const SERVER_OWNED_POINTERS = Object.keys(SERVER_OWNED)
  .map((k) => `/${k}`)
  .sort();

const listOf = (token: string, query = "") => api.request<MissionList>("GET", `/api/v1/missions${query}`, { token });

async function totalOf(token: string): Promise<number> {
  const res = await listOf(token, "?status=all");
  expect(res.status).toBe(200);
  return res.body.meta.total;
}

describe("POST /missions", () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await api.partner());
  });

  it("creates a mission: 201, Location, every field of the Mission schema", async () => {
    const before = Date.now();
    const res = await api.request<Mission>("POST", "/api/v1/missions", {
      token,
      body: { title: "Duomo facade", description: "Front and sides", bounds: square(), required_images: 5 },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json\b/);
    const mission = res.body;
    expect(res.headers.get("location")).toBe(`${service.url}/api/v1/missions/${mission.id}`);

    const strict = MissionSchema.strict().safeParse(mission);
    expect(strict.success, JSON.stringify(strict.error?.issues)).toBe(true);
    expect(Object.keys(mission).sort()).toEqual(Object.keys(MissionSchema.shape).sort());

    expect(mission.id).toMatch(/^mission_[0-9a-z]{20,}$/);
    expect(mission).toMatchObject({
      title: "Duomo facade",
      description: "Front and sides",
      status: "active",
      required_images: 5,
      submissions: 0,
      approved_images: 0,
      order_id: null,
      location_id: null,
      completed_at: null,
      cancelled_at: null,
    });
    const created = Date.parse(mission.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 2000);
    expect(created).toBeLessThanOrEqual(Date.now() + 2000);
    expect(mission.created_at).toBe(new Date(created).toISOString());
    // 0.005° × 0.005° at 43.77° N: about 402 m × 556 m.
    expect(mission.area_m2).toBeGreaterThan(210_000);
    expect(mission.area_m2).toBeLessThan(235_000);

    const fetched = await api.request<Mission>("GET", new URL(res.headers.get("location") ?? "").pathname, { token });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(mission);
  });

  it("accepts the SDK preview's requiredImages alias", async () => {
    const res = await api.request<Mission>("POST", "/api/v1/missions", { token, body: { title: "Alias", bounds: square(), requiredImages: 7 } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.required_images).toBe(7);
    expect(res.body.description).toBe("");
  });

  it("refuses required_images and requiredImages that disagree, and neither", async () => {
    const both = await api.request("POST", "/api/v1/missions", { token, body: { title: "Both", bounds: square(), required_images: 2, requiredImages: 3 } });
    expect(pointersOf(expectProblem(both, 422, "validation_failed"))).toEqual(["/requiredImages"]);
    const neither = await api.request("POST", "/api/v1/missions", { token, body: { title: "Neither", bounds: square() } });
    expect(pointersOf(expectProblem(neither, 422, "validation_failed"))).toEqual(["/required_images"]);
  });

  it("normalises a clockwise exterior ring to counter-clockwise (RFC 7946 right-hand rule)", async () => {
    const input = clockwise();
    const inputRing = input.coordinates[0] ?? [];
    expect(signedArea(inputRing)).toBeLessThan(0);
    const mission = await api.createMission(token, { bounds: input });
    const ring = mission.bounds.coordinates[0] ?? [];
    expect(signedArea(ring)).toBeGreaterThan(0);
    expect(ring[0]).toEqual(ring.at(-1));
    expect(positionsOf(ring)).toEqual(positionsOf(inputRing));
  });

  it("keeps a counter-clockwise ring as it is", async () => {
    const input = square(12.49, 41.89);
    const mission = await api.createMission(token, { bounds: input });
    expect(mission.bounds).toEqual(input);
  });

  it("refuses server-owned fields with one errors[] entry per field, and creates nothing", async () => {
    const before = await totalOf(token);
    const res = await api.request("POST", "/api/v1/missions", {
      token,
      body: { title: "Mass assignment", bounds: square(), required_images: 2, ...SERVER_OWNED },
    });
    const problem = expectProblem(res, 422, "validation_failed");
    expect(pointersOf(problem).sort()).toEqual(SERVER_OWNED_POINTERS);
    expect(await totalOf(token)).toBe(before);
  });
});

describe("PATCH /missions/{id} and POST /missions/{id}/cancel", () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await api.partner());
  });

  const get = (id: string) => api.request<Mission>("GET", `/api/v1/missions/${id}`, { token });

  it("refuses server-owned fields with one errors[] entry per field and leaves the mission unchanged", async () => {
    const mission = await api.createMission(token);
    const res = await api.request("PATCH", `/api/v1/missions/${mission.id}`, { token, body: { title: "Sneaky", ...SERVER_OWNED } });
    expect(pointersOf(expectProblem(res, 422, "validation_failed")).sort()).toEqual(SERVER_OWNED_POINTERS);
    expect((await get(mission.id)).body).toEqual(mission);
  });

  it("refuses an empty change", async () => {
    const mission = await api.createMission(token);
    const res = await api.request("PATCH", `/api/v1/missions/${mission.id}`, { token, body: {} });
    expectProblem(res, 422, "validation_failed");
    expect((await get(mission.id)).body).toEqual(mission);
  });

  it("changes title, description, required_images and bounds, and moves updated_at", async () => {
    const mission = await api.createMission(token, { title: "Before", description: "old" });
    await sleep(10);
    const bounds = clockwise(12.49, 41.89, 0.01);
    const res = await api.request<Mission>("PATCH", `/api/v1/missions/${mission.id}`, {
      token,
      body: { title: "After", description: "new", required_images: 9, bounds },
    });
    expect(res.status, res.text).toBe(200);
    const changed = res.body;
    expect(changed).toMatchObject({ id: mission.id, title: "After", description: "new", required_images: 9, status: "active" });
    expect(signedArea(changed.bounds.coordinates[0] ?? [])).toBeGreaterThan(0);
    expect(positionsOf(changed.bounds.coordinates[0] ?? [])).toEqual(positionsOf(bounds.coordinates[0] ?? []));
    expect(changed.area_m2).toBeGreaterThan(mission.area_m2 * 3);
    expect(changed.created_at).toBe(mission.created_at);
    expect(Date.parse(changed.updated_at)).toBeGreaterThan(Date.parse(mission.updated_at));
    expect((await get(mission.id)).body).toEqual(changed);
  });

  it("serves a read mission again unchanged, and the change once it is changed (the served JSON is kept with its row)", async () => {
    const mission = await api.createMission(token, { title: "Kept" });
    const first = await get(mission.id);
    expect((await get(mission.id)).text).toBe(first.text);
    const changed = await api.request<Mission>("PATCH", `/api/v1/missions/${mission.id}`, { token, body: { title: "Changed" } });
    expect(changed.status, changed.text).toBe(200);
    expect((await get(mission.id)).body).toEqual(changed.body);
    const cancelled = await api.request<Mission>("POST", `/api/v1/missions/${mission.id}/cancel`, { token });
    expect((await get(mission.id)).body).toEqual(cancelled.body);
  });

  it("accepts requiredImages on PATCH too", async () => {
    const mission = await api.createMission(token);
    const res = await api.request<Mission>("PATCH", `/api/v1/missions/${mission.id}`, { token, body: { requiredImages: 4 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.required_images).toBe(4);
    expect(res.body.title).toBe(mission.title);
  });

  it("cancels once; a second cancel and a PATCH of the cancelled mission are 409 mission_not_active", async () => {
    const mission = await api.createMission(token);
    const cancelled = await api.request<Mission>("POST", `/api/v1/missions/${mission.id}/cancel`, { token });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    expect(cancelled.body.cancelled_at).not.toBeNull();
    expect(Date.parse(cancelled.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(mission.updated_at));

    expectProblem(await api.request("POST", `/api/v1/missions/${mission.id}/cancel`, { token }), 409, "mission_not_active");
    expectProblem(await api.request("PATCH", `/api/v1/missions/${mission.id}`, { token, body: { title: "Revived?" } }), 409, "mission_not_active");
    expect((await get(mission.id)).body).toEqual(cancelled.body);
  });

  it("answers 404 not_found for an unknown id on GET, PATCH and cancel", async () => {
    const id = "mission_00000000000000000000000000";
    expectProblem(await get(id), 404, "not_found");
    expectProblem(await api.request("PATCH", `/api/v1/missions/${id}`, { token, body: { title: "x" } }), 404, "not_found");
    expectProblem(await api.request("POST", `/api/v1/missions/${id}/cancel`, { token }), 404, "not_found");
  });
});

describe("GET /missions", () => {
  let token: string;
  /** Created in this order, a few milliseconds apart. */
  const m = {} as Record<"florence" | "rome" | "percent" | "plain" | "cancelled", Mission>;
  let newestFirst: string[];

  beforeAll(async () => {
    ({ token } = await api.partner());
    m.florence = await api.createMission(token, { title: "Alpha SURVEY of the Duomo", bounds: square(11.255, 43.768) });
    await sleep(15);
    m.rome = await api.createMission(token, { title: "beta survey", description: "Colosseum", bounds: square(12.49, 41.89) });
    await sleep(15);
    m.percent = await api.createMission(token, { title: "100% coverage", bounds: square(11.26, 43.77) });
    await sleep(15);
    m.plain = await api.createMission(token, { title: "100 percent", bounds: square(11.265, 43.775) });
    await sleep(15);
    m.cancelled = await api.createMission(token, { title: "Cancelled survey", bounds: square(11.27, 43.78) });
    const cancel = await api.request("POST", `/api/v1/missions/${m.cancelled.id}/cancel`, { token });
    expect(cancel.status).toBe(200);
    newestFirst = [m.cancelled, m.plain, m.percent, m.rome, m.florence].map((x) => x.id);
  });

  const ids = (list: MissionList) => list.data.map((x) => x.id);

  it("lists active missions by default, newest first, with the list envelope", async () => {
    const res = await listOf(token);
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual(newestFirst.filter((id) => id !== m.cancelled.id));
    expect(res.body.data.every((x) => x.status === "active")).toBe(true);
    expect(res.body.meta).toEqual({ total: 4, page: 1, per_page: 20 });
  });

  it("status=cancelled lists only cancelled missions", async () => {
    const res = await listOf(token, "?status=cancelled");
    expect(ids(res.body)).toEqual([m.cancelled.id]);
    expect(res.body.meta.total).toBe(1);
  });

  it("status=all lists every status; a comma list selects several", async () => {
    expect(ids((await listOf(token, "?status=all")).body)).toEqual(newestFirst);
    expect(ids((await listOf(token, "?status=active,cancelled")).body)).toEqual(newestFirst);
    expect(ids((await listOf(token, "?status=completed")).body)).toEqual([]);
  });

  it.each(["bogus", "active,bogus", "ACTIVE"])("status=%s → 422 pointing at status", async (status) => {
    const problem = expectProblem(await listOf(token, `?status=${status}`), 422, "validation_failed");
    expect(pointersOf(problem)).toEqual(["status"]);
  });

  it("pages with page and per_page, meta {total, page, per_page}, and no item twice", async () => {
    const pages: string[][] = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await listOf(token, `?status=all&per_page=2&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ total: 5, page, per_page: 2 });
      pages.push(ids(res.body));
    }
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1, 0]);
    expect(pages.flat()).toEqual(newestFirst);
  });

  it("accepts per_page=100 and refuses per_page=101, per_page=0 and page=0 with 422", async () => {
    expect((await listOf(token, "?per_page=100")).body.meta.per_page).toBe(100);
    for (const [query, pointer] of [
      ["?per_page=101", "per_page"],
      ["?per_page=0", "per_page"],
      ["?page=0", "page"],
      ["?per_page=ten", "per_page"],
    ] as const) {
      const problem = expectProblem(await listOf(token, query), 422, "validation_failed");
      expect(pointersOf(problem), query).toEqual([pointer]);
      expect(problem.errors?.[0]?.in).toBe("query");
    }
  });

  it("q searches title and description case-insensitively", async () => {
    expect(ids((await listOf(token, "?q=survey")).body)).toEqual([m.rome.id, m.florence.id]);
    expect(ids((await listOf(token, "?q=SuRvEy&status=all")).body)).toEqual([m.cancelled.id, m.rome.id, m.florence.id]);
    expect(ids((await listOf(token, "?q=colosseum")).body)).toEqual([m.rome.id]);
  });

  it("q treats % and _ literally", async () => {
    expect(ids((await listOf(token, `?q=${encodeURIComponent("100%")}`)).body)).toEqual([m.percent.id]);
    expect(ids((await listOf(token, `?q=${encodeURIComponent("%")}`)).body)).toEqual([m.percent.id]);
    expect(ids((await listOf(token, `?q=${encodeURIComponent("_")}`)).body)).toEqual([]);
    expect(ids((await listOf(token, `?q=${encodeURIComponent("100_")}`)).body)).toEqual([]);
  });

  it("created_since keeps missions created at or after the time", async () => {
    const res = await listOf(token, `?status=all&created_since=${encodeURIComponent(m.percent.created_at)}`);
    expect(ids(res.body)).toEqual([m.cancelled.id, m.plain.id, m.percent.id]);
    expect(res.body.meta.total).toBe(3);
    const problem = expectProblem(await listOf(token, "?created_since=yesterday"), 422, "validation_failed");
    expect(pointersOf(problem)).toEqual(["created_since"]);
  });

  it("bbox keeps missions whose bounds intersect the box", async () => {
    expect(ids((await listOf(token, "?status=all&bbox=11.2,43.7,11.3,43.8")).body)).toEqual([m.cancelled.id, m.plain.id, m.percent.id, m.florence.id]);
    // A box that only overlaps the edge of the Rome square still finds it.
    expect(ids((await listOf(token, "?bbox=12.494,41.894,12.6,42")).body)).toEqual([m.rome.id]);
    expect(ids((await listOf(token, "?status=all&bbox=-10,-10,-9,-9")).body)).toEqual([]);
    expect(ids((await listOf(token, "?status=all&bbox=11.3,43.7,12.4,43.8")).body)).toEqual([]);
  });

  it.each([
    ["1,2,3", "validation_failed"],
    ["a,b,c,d", "validation_failed"],
    ["12,44,11,43", "validation_failed"],
    ["181,0,182,1", "validation_failed"],
    ["0,-91,1,0", "validation_failed"],
  ])("bbox=%s → 422 %s pointing at bbox", async (bbox, code) => {
    const problem = expectProblem(await listOf(token, `?bbox=${bbox}`), 422, code);
    expect(pointersOf(problem)).toEqual(["bbox"]);
  });

  it("orders newest first, stably across calls and pages", async () => {
    const first = (await listOf(token, "?status=all&per_page=100")).body.data;
    const again = (await listOf(token, "?status=all&per_page=100")).body.data;
    expect(first.map((x) => x.id)).toEqual(again.map((x) => x.id));
    const times = first.map((x) => Date.parse(x.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});
