// `npm start` (scripts/server.ts) hands the REST service's paths to the Hono app before Next: an
// export keeps its exact Content-Length (through Next's route handler it was sent chunked), API
// responses keep the service's own headers, and readiness answers with figures.
import { makePhoto } from "@/lib/demo/make-photo";
import { expect, test } from "./support/fixtures";
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
  await expect
    .poll(async () => ((await (await request.get("/api/ready")).json()) as { status: string }).status, { timeout: 30_000 })
    .toBe("ready");
  const body = (await (await request.get("/api/ready")).json()) as { checks: { database: { kind: string }; storage: { kind: string }; workers: { alive: number } } };
  expect(body.checks.database.kind).toBe("pglite");
  expect(body.checks.storage.kind).toBe("local");
  expect(body.checks.workers.alive).toBe(1);
});
