// GET /missions/{id}/submission-points: every located submission of a mission as GeoJSON points
// for the map — contents, filters, unlocated count, media type, ETag revalidation and tenancy.
// A handful of rows proves the behaviour; the 100,000-point timing is measured outside the suite.
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { gunzipSync } from "node:zlib";
import { check as checkGeoJson } from "@placemarkio/check-geojson";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submissions, type SubmissionStatus } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { SubmissionPointCollection } from "@/lib/schemas/submission";
import type { ProblemBody } from "@/lib/service/errors";
import { expectProblem, expectRateLimitHeaders, pointersOf } from "./assertions";
import { TestClient, square, type ApiResponse } from "./client";
import { startTestService, type TestService } from "./harness";
import { photo, submitPhotos } from "./photos";

let service: TestService;
let api: TestClient;
let orgA: string;
let tokenA: string;
let tokenB: string;
let orgB: string;
let zoomerId: string;
let zoomerToken: string;
let missionId: string;

const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const minutes = (n: number) => new Date(T0 + n * 60_000);

interface Seed {
  id: string;
  status: SubmissionStatus;
  lng: number | null;
  lat: number | null;
  createdAt: Date;
}

/** Rows inserted directly, so that times, statuses and locations are exactly known. */
const seeds: Seed[] = [
  { id: createId("submission", T0), status: "approved", lng: 11.2551234567, lat: 43.7681234567, createdAt: minutes(0) },
  { id: createId("submission", T0 + 1), status: "rejected", lng: 11.256, lat: 43.769, createdAt: minutes(10) },
  { id: createId("submission", T0 + 2), status: "received", lng: null, lat: null, createdAt: minutes(20) },
  { id: createId("submission", T0 + 3), status: "processing", lng: -0.0001, lat: -0.5, createdAt: minutes(30) },
  { id: createId("submission", T0 + 4), status: "approved", lng: 11.257, lat: 43.77, createdAt: minutes(40) },
  { id: createId("submission", T0 + 5), status: "rejected", lng: null, lat: null, createdAt: minutes(50) },
];

async function insert(mission: string, orgId: string, seed: Seed) {
  await service.runtime.ctx.db.insert(submissions).values({
    id: seed.id,
    missionId: mission,
    orgId,
    zoomerId,
    status: seed.status,
    lat: seed.lat,
    lng: seed.lng,
    imageCount: 1,
    createdAt: seed.createdAt,
    updatedAt: seed.createdAt,
  });
}

const points = (mission: string, query = "", token = tokenA, headers: Record<string, string> = {}) =>
  api.request<SubmissionPointCollection>("GET", `/api/v1/missions/${mission}/submission-points${query}`, { token, headers });

const featureIds = (res: ApiResponse<SubmissionPointCollection>) => res.body.features.map((f) => f.properties.id);
const located = (filter: (s: Seed) => boolean = () => true) =>
  seeds
    .filter((s) => s.lat !== null && filter(s))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .map((s) => s.id);

beforeAll(async () => {
  service = await startTestService({ rateLimit: { perMinute: 10_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } });
  api = new TestClient(service);
  const a = await api.partner(["missions:read", "missions:write", "submissions:read"]);
  orgA = a.orgId;
  tokenA = a.token;
  const b = await api.partner(["missions:read", "missions:write", "submissions:read"]);
  orgB = b.orgId;
  tokenB = b.token;
  const zoomer = await api.createZoomer();
  zoomerId = zoomer.id;
  zoomerToken = await api.token(zoomer);
  missionId = (await api.createMission(tokenA, { title: "Mapped", bounds: square(), required_images: 100 })).id;
  for (const seed of seeds) await insert(missionId, orgA, seed);
});
afterAll(() => service.close());

describe("GET /missions/{id}/submission-points", () => {
  it("answers every located submission, newest first, as RFC 7946 points with id, status and received_at", async () => {
    const res = await points(missionId);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/geo+json");
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(res.headers.get("etag") ?? "").toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expectRateLimitHeaders(res, 10_000, 60);
    expect(checkGeoJson(res.text).type).toBe("FeatureCollection");

    expect(featureIds(res)).toEqual(located());
    expect(res.body.meta).toEqual({ count: 4, unlocated: 2 });
    const first = seeds[0] as Seed;
    expect(res.body.features.at(-1)).toEqual({
      type: "Feature",
      geometry: { type: "Point", coordinates: [first.lng, first.lat] },
      properties: { id: first.id, status: "approved", received_at: "2026-03-01T10:00:00.000Z" },
    });
    // Nothing else: exactly the keys of the contract.
    expect(Object.keys(res.body).sort()).toEqual(["features", "meta", "type"]);
    for (const feature of res.body.features) expect(Object.keys(feature.properties).sort()).toEqual(["id", "received_at", "status"]);
    const southWest = res.body.features.find((f) => f.properties.status === "processing");
    expect(southWest?.geometry.coordinates).toEqual([-0.0001, -0.5]);
  });

  it("filters by status (comma list, or all) and counts only the matching unlocated submissions", async () => {
    const approved = await points(missionId, "?status=approved");
    expect(featureIds(approved)).toEqual(located((s) => s.status === "approved"));
    expect(approved.body.meta).toEqual({ count: 2, unlocated: 0 });

    const decided = await points(missionId, "?status=approved,rejected");
    expect(featureIds(decided)).toEqual(located((s) => s.status === "approved" || s.status === "rejected"));
    expect(decided.body.meta).toEqual({ count: 3, unlocated: 1 });

    const all = await points(missionId, "?status=all");
    expect(featureIds(all)).toEqual(located());
    expect(all.body.meta.unlocated).toBe(2);

    const bad = expectProblem(await points(missionId, "?status=approved,lost"), 422, "validation_failed");
    expect(pointersOf(bad)).toEqual(["status"]);
  });

  it("filters by since (inclusive) and until (exclusive) on the time received", async () => {
    const window = await points(missionId, `?since=${minutes(10).toISOString()}&until=${minutes(40).toISOString()}`);
    expect(featureIds(window)).toEqual(located((s) => s.createdAt >= minutes(10) && s.createdAt < minutes(40)));
    expect(featureIds(window)).toHaveLength(2);
    expect(window.body.meta).toEqual({ count: 2, unlocated: 1 });

    const offset = await points(missionId, `?since=${encodeURIComponent("2026-03-01T11:40:00+01:00")}`);
    expect(featureIds(offset)).toEqual(located((s) => s.createdAt >= minutes(40)));

    expect(pointersOf(expectProblem(await points(missionId, "?since=yesterday"), 422, "validation_failed"))).toEqual(["since"]);
    expect(pointersOf(expectProblem(await points(missionId, "?until=2026-03-01"), 422, "validation_failed"))).toEqual(["until"]);
  });

  it("counts impossible positions (NaN, infinite, out of range) as unlocated and keeps the document valid JSON", async () => {
    const mission = (await api.createMission(tokenA, { title: "Bad GPS" })).id;
    const good: Seed = { id: createId("submission"), status: "approved", lng: 180, lat: -90, createdAt: minutes(1) };
    await insert(mission, orgA, good);
    for (const [lng, lat] of [
      [Number.NaN, 43.7],
      [11.2, Number.POSITIVE_INFINITY],
      [200, 43.7],
      [11.2, -91],
      [11.2, null],
    ] as const) {
      await insert(mission, orgA, { id: createId("submission"), status: "approved", lng, lat, createdAt: minutes(2) });
    }
    const res = await points(mission);
    expect(res.status).toBe(200);
    expect(checkGeoJson(res.text).type).toBe("FeatureCollection");
    expect(featureIds(res)).toEqual([good.id]);
    expect(res.body.features[0]?.geometry.coordinates).toEqual([180, -90]);
    expect(res.body.meta).toEqual({ count: 1, unlocated: 5 });
  });

  it("answers an empty collection for a mission without submissions", async () => {
    const empty = await api.createMission(tokenA, { title: "Nobody came" });
    const res = await points(empty.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: "FeatureCollection", features: [], meta: { count: 0, unlocated: 0 } });
    expect(checkGeoJson(res.text).type).toBe("FeatureCollection");
  });

  it("shows a submission received through the intake at its photo's GPS position", async () => {
    const mission = await api.createMission(tokenA, { title: "Real intake" });
    const upload = await submitPhotos(api, zoomerToken, mission.id, [{ bytes: await photo() }]);
    expect(upload.status, upload.text).toBe(202);
    const res = await points(mission.id);
    expect(featureIds(res)).toEqual([upload.body.id]);
    const [lng, lat] = res.body.features[0]?.geometry.coordinates ?? [];
    expect(lng).toBeCloseTo(11.2575, 5);
    expect(lat).toBeCloseTo(43.7705, 5);
    expect(res.body.features[0]?.properties.status).toBe("received");
  });
});

describe("revalidation with ETag", () => {
  it("answers 304 without a body to If-None-Match with the current ETag (weak or strong form, in a list, or *)", async () => {
    const first = await points(missionId, "?status=all");
    const etag = first.headers.get("etag") ?? "";
    for (const header of [etag, etag.replace(/^W\//, ""), `W/"stale", ${etag}`, "*"]) {
      const again = await points(missionId, "?status=all", tokenA, { "if-none-match": header });
      expect(again.status, header).toBe(304);
      expect(again.text).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("cache-control")).toBe("private, no-cache");
      expectRateLimitHeaders(again, 10_000, 60);
    }
    expect((await points(missionId, "?status=all", tokenA, { "if-none-match": 'W/"stale"' })).status).toBe(200);
  });

  it("gives other filters another ETag", async () => {
    const tags = new Set<string | null>();
    for (const query of ["", "?status=approved", "?status=rejected", `?since=${minutes(10).toISOString()}`, `?until=${minutes(10).toISOString()}`]) {
      tags.add((await points(missionId, query)).headers.get("etag"));
    }
    expect(tags.size).toBe(5);
  });

  it("changes the ETag when a submission arrives, and when one changes status — even without a newer updated_at", async () => {
    const mission = (await api.createMission(tokenA, { title: "Changing" })).id;
    const seed: Seed = { id: createId("submission"), status: "received", lng: 11.2555, lat: 43.7685, createdAt: minutes(60) };
    await insert(mission, orgA, seed);
    const before = await points(mission);
    const etag = before.headers.get("etag") ?? "";

    // A status change stamped with the same updated_at as before (two changes in one millisecond,
    // or clocks of two instances a little apart) must still show.
    await service.runtime.ctx.db.update(submissions).set({ status: "processing" }).where(eq(submissions.id, seed.id));
    const changed = await points(mission, "", tokenA, { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.body.features[0]?.properties.status).toBe("processing");
    const etag2 = changed.headers.get("etag") ?? "";
    expect(etag2).not.toBe(etag);

    await insert(mission, orgA, { id: createId("submission"), status: "received", lng: null, lat: null, createdAt: minutes(61) });
    const arrived = await points(mission, "", tokenA, { "if-none-match": etag2 });
    expect(arrived.status).toBe(200);
    expect(arrived.body.meta).toEqual({ count: 1, unlocated: 1 });
    expect(arrived.headers.get("etag")).not.toBe(etag2);
  });
});

describe("compression", () => {
  /** Raw HTTP: fetch would decode the body and hide how it travelled. */
  function rawPoints(acceptEncoding: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = httpGet(
        `${service.url}/api/v1/missions/${missionId}/submission-points`,
        { headers: { authorization: `Bearer ${tokenA}`, "accept-encoding": acceptEncoding } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on("error", reject);
    });
  }

  it("sends the document gzipped to a client that takes gzip — the same bytes, made once — and as it is otherwise", async () => {
    const plain = await rawPoints("identity");
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const first = await rawPoints("gzip, deflate, br");
    const second = await rawPoints("br;q=1, gzip;q=0.5");
    for (const gz of [first, second]) {
      expect(gz.status).toBe(200);
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(gz.headers["content-type"]).toMatch(/^application\/geo\+json/);
      expect(gz.headers.etag).toBe(plain.headers.etag);
      expect(gunzipSync(gz.body).toString()).toBe(plain.body.toString());
    }
    expect(second.body.equals(first.body)).toBe(true);
    expect((await rawPoints("gzip;q=0")).headers["content-encoding"]).toBeUndefined();
  });
});

describe("documents kept in memory", () => {
  /** What a kept document costs the cache: its text, and the gzip it was sent as (fetch takes gzip). */
  const kept = (res: { text: string; headers: Headers }): number =>
    res.text.length + (res.headers.get("content-encoding") === "gzip" ? Number(res.headers.get("content-length")) : 0);

  it("answers an unchanged mission from memory, and builds again once a submission arrives or changes status", async () => {
    const cache = service.runtime.ctx.pointsCache;
    const mission = (await api.createMission(tokenA, { title: "Cached" })).id;
    const seed: Seed = { id: createId("submission"), status: "received", lng: 11.2555, lat: 43.7685, createdAt: minutes(70) };
    await insert(mission, orgA, seed);
    const sizeBefore = cache.size;
    const first = await points(mission);
    expect(first.status).toBe(200);
    // The document is kept: the cache grew by exactly its length, and its gzip's.
    expect(first.headers.get("content-encoding")).toBe("gzip");
    expect(cache.size - sizeBefore).toBe(kept(first));
    const again = await points(mission);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(cache.size - sizeBefore).toBe(kept(first));

    // Same updated_at, another status: a new version, never the kept document.
    await service.runtime.ctx.db.update(submissions).set({ status: "approved" }).where(eq(submissions.id, seed.id));
    const changed = await points(mission);
    expect(changed.body.features.map((f) => f.properties.status)).toEqual(["approved"]);
    const other: Seed = { id: createId("submission"), status: "received", lng: 11.256, lat: 43.769, createdAt: minutes(71) };
    await insert(mission, orgA, other);
    const arrived = await points(mission);
    expect(featureIds(arrived)).toEqual([other.id, seed.id]);
    // The slot holds only the newest version.
    expect(cache.size - sizeBefore).toBe(kept(arrived));
  });

  it("still answers another organisation 404 for a mission whose document is kept", async () => {
    const kept = await points(missionId);
    expect(kept.status).toBe(200);
    const res = await points(missionId, "", tokenB);
    expectProblem(res, 404, "not_found");
    expect(res.text).not.toContain((seeds[0] as Seed).id);
  });
});

describe("access", () => {
  it("needs submissions:read", async () => {
    const { token } = await api.partner(["missions:read"]);
    expectProblem(await points(missionId, "", token), 403, "insufficient_scope");
    expectProblem(await points(missionId, "", ""), 401, "unauthorized");
  });

  it("answers another organisation's mission exactly like a mission that does not exist", async () => {
    const foreign = await points(missionId, "", tokenB);
    const missing = await points("mission_00000000000000000000000000", "", tokenB);
    expectProblem(foreign, 404, "not_found");
    const strip = (res: ApiResponse<unknown>) => ({ ...(res.body as ProblemBody), instance: undefined });
    expect(strip(foreign)).toEqual(strip(missing));
    expect(foreign.text).not.toContain(seeds[0]?.id);
    // Even when it names a still-current ETag of A's answer.
    const etag = (await points(missionId)).headers.get("etag") ?? "";
    expectProblem(await points(missionId, "", tokenB, { "if-none-match": etag }), 404, "not_found");
  });

  it("shows each organisation only its own mission's points", async () => {
    const missionB = (await api.createMission(tokenB, { title: "B's" })).id;
    const seedB: Seed = { id: createId("submission"), status: "approved", lng: 11.2556, lat: 43.7686, createdAt: minutes(5) };
    await insert(missionB, orgB, seedB);
    expect(featureIds(await points(missionB, "", tokenB))).toEqual([seedB.id]);
    expect(featureIds(await points(missionId))).not.toContain(seedB.id);
    expectProblem(await points(missionB, "", tokenA), 404, "not_found");
  });
});
