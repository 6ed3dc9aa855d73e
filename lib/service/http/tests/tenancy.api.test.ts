// Tenant isolation: another organisation's mission is answered exactly like one that does not
// exist, never listed, and never changed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mission } from "@/lib/schemas/mission";
import type { ProblemBody } from "@/lib/service/errors";
import { expectProblem } from "./assertions";
import { TestClient, square, type ApiResponse } from "./client";
import { startTestService, type TestService } from "./harness";

let service: TestService;
let api: TestClient;
/** Org A: owns the missions under attack. */
let tokenA: string;
/** Org B: the other tenant. */
let tokenB: string;
let missionA: Mission;
/** Missions org B created itself, so its list is known exactly. */
const missionsOfB: Mission[] = [];
const MISSING_ID = "mission_00000000000000000000000000";
/** Shared by both orgs' missions, so a text search would match across tenants. */
const SHARED_WORD = `Tenancyword${Date.now()}`;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
  ({ token: tokenA } = await api.partner());
  ({ token: tokenB } = await api.partner());
  missionA = await api.createMission(tokenA, { title: `A's ${SHARED_WORD}`, description: "belongs to org A", bounds: square(11.255, 43.768) });
  // A cancelled mission of A too, for the status filters.
  const cancelledA = await api.createMission(tokenA, { title: `A's cancelled ${SHARED_WORD}`, bounds: square(11.255, 43.768) });
  expect((await api.request("POST", `/api/v1/missions/${cancelledA.id}/cancel`, { token: tokenA })).status).toBe(200);
  missionsOfB.push(await api.createMission(tokenB, { title: `B's ${SHARED_WORD}`, bounds: square(11.256, 43.769) }));
});
afterAll(() => service.close());

/** Problem bodies compared without `instance`, which names the requested path. */
function withoutInstance(res: ApiResponse<unknown>): Partial<ProblemBody> {
  const rest: Partial<ProblemBody> = { ...(res.body as ProblemBody) };
  delete rest.instance;
  return rest;
}

/** Asserts that org B's request on A's mission is answered exactly like the same request on a missing id. */
async function expectSameAsMissing(send: (id: string) => Promise<ApiResponse<unknown>>) {
  const foreign = await send(missionA.id);
  const missing = await send(MISSING_ID);
  expectProblem(foreign, 404, "not_found");
  expectProblem(missing, 404, "not_found");
  expect(withoutInstance(foreign)).toEqual(withoutInstance(missing));
  expect(Object.keys(foreign.body as object).sort()).toEqual(Object.keys(missing.body as object).sort());
  expect((foreign.body as ProblemBody).instance ?? "").not.toContain("org_");
  expect(foreign.text).not.toContain("org A");
  for (const header of ["content-type", "www-authenticate", "x-ratelimit-limit"]) {
    expect(foreign.headers.get(header)).toBe(missing.headers.get(header));
  }
}

async function expectMissionAUnchanged() {
  const res = await api.request<Mission>("GET", `/api/v1/missions/${missionA.id}`, { token: tokenA });
  expect(res.status).toBe(200);
  expect(res.body).toEqual(missionA);
}

describe("org B on org A's mission", () => {
  it("GET /missions/{id} → 404 not_found, like an id that does not exist", async () => {
    await expectSameAsMissing((id) => api.request("GET", `/api/v1/missions/${id}`, { token: tokenB }));
  });

  it("PATCH /missions/{id} → 404 not_found, and the mission is unchanged", async () => {
    await expectSameAsMissing((id) =>
      api.request("PATCH", `/api/v1/missions/${id}`, { token: tokenB, body: { title: "Hijacked", required_images: 99, bounds: square(0, 0) } }),
    );
    await expectMissionAUnchanged();
  });

  it("POST /missions/{id}/cancel → 404 not_found, and the mission stays active", async () => {
    await expectSameAsMissing((id) => api.request("POST", `/api/v1/missions/${id}/cancel`, { token: tokenB }));
    await expectMissionAUnchanged();
  });

  it("org A still sees its own mission (the control)", async () => {
    const res = await api.request<Mission>("GET", `/api/v1/missions/${missionA.id}`, { token: tokenA });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(missionA.id);
  });
});

describe("GET /missions never shows another organisation's missions", () => {
  const queries = [
    "",
    "?status=all",
    "?status=cancelled",
    "?status=active,completed,cancelled",
    `?q=${SHARED_WORD}`,
    `?q=${SHARED_WORD.toLowerCase()}&status=all`,
    "?bbox=11.2,43.7,11.3,43.8",
    "?bbox=-180,-90,180,90&status=all",
    "?created_since=2000-01-01T00:00:00Z&status=all",
    "?updated_since=2000-01-01T00:00:00Z",
    "?per_page=100&page=1&status=all",
  ];

  it.each(queries)("GET /missions%s for org B lists only B's missions", async (query) => {
    const res = await api.request<{ data: Mission[]; meta: { total: number } }>("GET", `/api/v1/missions${query}`, { token: tokenB });
    expect(res.status, res.text).toBe(200);
    const ids = res.body.data.map((m) => m.id);
    expect(ids).not.toContain(missionA.id);
    for (const id of ids) expect(missionsOfB.map((m) => m.id)).toContain(id);
    expect(res.body.meta.total).toBe(ids.length);
    expect(res.text).not.toContain("A's");
  });

  it("org A's list does show A's missions (the control)", async () => {
    const res = await api.request<{ data: Mission[] }>("GET", `/api/v1/missions?q=${SHARED_WORD}&status=all`, { token: tokenA });
    expect(res.body.data.map((m) => m.title).sort()).toEqual([`A's ${SHARED_WORD}`, `A's cancelled ${SHARED_WORD}`].sort());
  });
});
