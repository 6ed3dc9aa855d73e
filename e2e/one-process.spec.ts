// `npm start` (scripts/server.ts) hands the REST service's paths to the Hono app before Next: an
// export keeps its exact Content-Length (through Next's route handler it was sent chunked), API
// responses keep the service's own headers, and readiness answers with figures. Next's built
// files (scripts, MapLibre's worker) go out as the compressed copies made at build time.
import { makePhoto } from "@/lib/demo/make-photo";
import { expect, test } from "./support/fixtures";
import { waitForMapReady } from "./support/map-frame";
import { squareAround, unique } from "./support/operator";

test("the API under npm start: an export announces its exact size, with the service's headers", async ({ operator, partner, request }) => {
  const center = { lat: 44.4949, lng: 11.3426 };
  const mission = await partner.api.createMission({ title: unique("One process"), bounds: squareAround(center.lat, center.lng) });
  const zoomer = await operator.zoomer();
  const photo = await makePhoto({ lat: center.lat + 0.0002, lng: center.lng, accuracyM: 5, capturedAt: new Date(), seed: 9101 });
  await zoomer.submit(mission.id, [{ name: "IMG_9101.jpg", buffer: photo }]);

  const res = await request.get(`/api/v1/missions/${mission.id}/export`, { headers: { authorization: `Bearer ${partner.api.token}` } });
  expect(res.status()).toBe(200);
  const body = await res.body();
  const headers = res.headers();
  expect(headers["content-length"]).toBe(String(body.length));
  expect(headers["transfer-encoding"]).toBeUndefined();
  expect(body.length).toBeGreaterThan(photo.length);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["x-request-id"]).toMatch(/\S/);
});

test("readiness under npm start: database, storage and the in-process worker", async ({ request }) => {
  await expect.poll(async () => ((await (await request.get("/api/ready")).json()) as { status: string }).status, { timeout: 30_000 }).toBe("ready");
  const body = (await (await request.get("/api/ready")).json()) as {
    checks: { database: { kind: string }; storage: { kind: string }; workers: { alive: number } };
  };
  expect(body.checks.database.kind).toBe("pglite");
  expect(body.checks.storage.kind).toBe("local");
  expect(body.checks.workers.alive).toBe(1);
});

test("Next's built scripts under npm start: the copy compressed at build time, cacheable for a year", async ({ request }) => {
  const html = await (await request.get("/sign-in")).text();
  const script = /\/_next\/static\/chunks\/[\w.-]+\.js/.exec(html)?.[0];
  expect(script).toBeDefined();
  for (const [accept, coding] of [
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
  ] as const) {
    const res = await request.get(script ?? "", { headers: { "accept-encoding": accept } });
    expect(res.status()).toBe(200);
    const headers = res.headers();
    expect(headers["content-encoding"]).toBe(coding);
    expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(headers["content-type"]).toBe("application/javascript; charset=utf-8");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(Number(headers["content-length"])).toBeGreaterThan(0);
    expect((await res.text()).length).toBeGreaterThan(Number(headers["content-length"]));
  }
});

test("the map's points through the dashboard's proxy arrive gzipped by the service, and decode to the mission's points", async ({
  page,
  operator,
  partner,
  signIn,
}) => {
  const center = { lat: 45.4642, lng: 9.19 };
  const mission = await partner.api.createMission({ title: unique("Gzipped points"), bounds: squareAround(center.lat, center.lng) });
  const zoomer = await operator.zoomer();
  const photo = await makePhoto({ lat: center.lat, lng: center.lng + 0.0002, accuracyM: 5, capturedAt: new Date(), seed: 9102 });
  await zoomer.submit(mission.id, [{ name: "IMG_9102.jpg", buffer: photo }]);
  await signIn.signInAs(partner.admin);

  const res = await page.request.get(`/dashboard-api/missions/${mission.id}/submission-points`, { headers: { "accept-encoding": "gzip, deflate, br" } });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-encoding"]).toBe("gzip");
  expect(res.headers()["x-pm-content-encoding"]).toBeUndefined();
  expect(res.headers()["etag"]).toMatch(/^W\/"/);
  const body = (await res.json()) as { type: string; features: unknown[]; meta: { count: number } };
  expect(body.type).toBe("FeatureCollection");
  expect(body.meta.count).toBe(1);
  expect(body.features).toHaveLength(1);
});

test("MapLibre's worker under npm start: the map starts it from the build's content-hashed copy, compressed, cacheable for a year", async ({
  page,
  partner,
  signIn,
}) => {
  const mission = await partner.api.createMission({ title: unique("Map worker"), bounds: squareAround(43.7696, 11.2558) });
  await signIn.signInAs(partner.admin);
  const workers: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("maplibre-gl-worker")) workers.push(new URL(request.url()).pathname);
  });
  await page.goto(`/missions/${mission.id}`);
  await waitForMapReady(page.locator("[data-map-state]"));

  // Whatever the hash, one worker script, from the build's media, none from anywhere else.
  expect(new Set(workers).size).toBe(1);
  const [path] = workers;
  expect(path).toMatch(/^\/_next\/static\/media\/maplibre-gl-worker\.[\w-]+\.mjs$/);
  const res = await page.request.get(path ?? "", { headers: { "accept-encoding": "gzip, deflate, br" } });
  expect(res.status()).toBe(200);
  const headers = res.headers();
  expect(headers["content-encoding"]).toBe("br");
  expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(headers["content-type"]).toBe("application/javascript; charset=utf-8");
  expect(await res.text()).toContain("maplibre");
});
