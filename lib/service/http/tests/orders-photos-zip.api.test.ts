// GET /orders/{id}/photos.zip over real HTTP: two locations fulfilled through the field API (take,
// submit, QA, verification, delivery), then the order's archive and one location's, unzipped and
// checked entry by entry (bytes and SHA-256 against what the zoomer sent, each photo's evidence JWS
// and the JWKS snapshot beside them, metadata.json against
// the delivered photos); another organisation's order and an unknown location are 404; a viewer's
// dashboard token may download (orders:read) but not send a photo back or create an order (403).
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import type { Order } from "@/lib/schemas/order";
import { expectProblem } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderBody, orderPartner, type OrderPartner } from "./orders-client";
import { createZoomer } from "./photos";

let service: TestService;
let api: TestClient;
let workDir: string;
let partner: OrderPartner;
let order: Order;
const sent = new Map<string, Buffer>(); // location id → the bytes its photo was sent with

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const PLACES = [
  { location_id: "loc_loggia", name: "Loggia", coordinates: { lat: 43.7695, lng: 11.2558 } },
  { location_id: "loc_bargello", name: "Bargello", coordinates: { lat: 43.7703, lng: 11.2582 } },
];

interface Task {
  id: string;
  angle: string;
  location: { id: string };
}

async function zipOf(path: string, token: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function unzip(bytes: Buffer, name: string): Promise<{ entries: string[]; read: (entry: string) => Buffer }> {
  const file = join(workDir, name);
  await writeFile(file, bytes);
  expect(execFileSync("unzip", ["-t", file]).toString()).toMatch(/No errors detected/);
  const entries = execFileSync("unzip", ["-Z1", file]).toString().trim().split("\n").sort();
  return { entries, read: (entry) => execFileSync("unzip", ["-p", file, entry], { maxBuffer: 64 * 1024 * 1024 }) };
}

beforeAll(async () => {
  service = await startTestService({}, { worker: true });
  api = new TestClient(service);
  workDir = await mkdtemp(join(tmpdir(), "pm-order-zip-"));
  partner = await orderPartner(api);
  order = await createOrder(api, partner.apiKey, { client_reference: "zip-test", requirements: { angles: ["overview"] }, locations: PLACES });
  expect((await confirm(api, partner.apiKey, order.id)).body.status).toBe("in_progress");

  // A zoomer 30 m south of each place shoots its one task; the worker verifies and delivers.
  const zoomer = await createZoomer(api);
  for (const [i, place] of PLACES.entries()) {
    const camera = { lat: place.coordinates.lat - 30 / 111_320, lng: place.coordinates.lng };
    const tasks = (
      await api.request<{ data: Task[] }>("GET", `/api/v1/field/assignments?lat=${camera.lat}&lng=${camera.lng}&radius_km=0.2`, { token: zoomer.token })
    ).body.data;
    const task = tasks.find((t) => t.location.id === place.location_id);
    if (!task) throw new Error(`no task for ${place.location_id}`);
    expect((await api.request("POST", `/api/v1/field/assignments/${task.id}/take`, { token: zoomer.token })).status).toBe(200);
    const bytes = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed: 4400 + i });
    sent.set(place.location_id, bytes);
    const form = new FormData();
    form.append("photos", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "shot.jpg");
    const res = await fetch(`${service.url}/api/v1/field/assignments/${task.id}/photo`, {
      method: "POST",
      headers: { authorization: `Bearer ${zoomer.token}` },
      body: form,
    });
    expect(res.status, await res.text()).toBe(202);
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    const photos = await api.request<{ data: unknown[] }>("GET", `${ORDERS}/orders/${order.id}/photos`, { token: partner.apiKey });
    if (photos.body.data.length === 2) break;
    if (Date.now() > deadline) throw new Error(`not delivered: ${photos.text.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 120_000);

afterAll(async () => {
  await service?.close();
  await rm(workDir, { recursive: true, force: true });
});

describe("GET /orders/{id}/photos.zip", () => {
  it("streams every delivered photo's original bytes and metadata.json, with an exact Content-Length", async () => {
    const { status, headers, bytes } = await zipOf(`${ORDERS}/orders/${order.id}/photos.zip`, partner.apiKey);
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("application/zip");
    expect(Number(headers.get("content-length"))).toBe(bytes.length);
    expect(headers.get("content-disposition")).toBe(`attachment; filename="${order.id}.zip"`);
    expect(headers.get("x-photo-count")).toBe("2");
    expect(headers.get("x-ratelimit-limit")).toBeTruthy();

    const zip = await unzip(bytes, "order.zip");
    const delivered = (
      await api.request<{ data: { photo_id: string; location_id: string; metadata: { sha256: string } }[] }>("GET", `${ORDERS}/orders/${order.id}/photos`, {
        token: partner.apiKey,
      })
    ).body.data;
    // Named by the cycle as the order page counts it: cycle_index 0 is "cycle 1", cycle-001.
    const expected = delivered.map((p) => `photos/${p.location_id}/cycle-001-overview-${p.photo_id}.jpg`);
    const evidence = delivered.map((p) => `evidence/${p.photo_id}.jws`);
    expect(zip.entries).toEqual(["metadata.json", "evidence/jwks.json", ...evidence, ...expected].sort());
    for (const photo of delivered) {
      const original = zip.read(`photos/${photo.location_id}/cycle-001-overview-${photo.photo_id}.jpg`);
      expect(sha256(original)).toBe(sha256(sent.get(photo.location_id) ?? Buffer.alloc(0)));
      expect(sha256(original)).toBe(photo.metadata.sha256);
    }
    const metadata = JSON.parse(zip.read("metadata.json").toString("utf8")) as {
      format: string;
      order: { id: string; client_reference: string };
      location_id: string | null;
      photos: {
        photo_id: string;
        file: string;
        location_id: string;
        cycle_index: number;
        angle: string;
        sha256: string;
        verification: { ai_checks: Record<string, { passed: boolean }> };
      }[];
    };
    expect(metadata.format).toBe("photo-missions-order-photos/1");
    expect(metadata.order).toMatchObject({ id: order.id, client_reference: "zip-test" });
    expect(metadata.location_id).toBeNull();
    expect(metadata.photos.map((p) => p.file).sort()).toEqual(expected.sort());
    for (const p of metadata.photos) {
      expect(p).toMatchObject({ cycle_index: 0, angle: "overview" });
      expect(p.sha256).toBe(sha256(sent.get(p.location_id) ?? Buffer.alloc(0)));
      expect(p.verification.ai_checks.location_match?.passed).toBe(true);
    }
  });

  it("narrows to one location with ?location_id=", async () => {
    const { status, headers, bytes } = await zipOf(`${ORDERS}/orders/${order.id}/photos.zip?location_id=loc_bargello`, partner.apiKey);
    expect(status).toBe(200);
    expect(headers.get("content-disposition")).toBe(`attachment; filename="${order.id}-loc_bargello.zip"`);
    const zip = await unzip(bytes, "bargello.zip");
    expect(zip.entries).toHaveLength(4); // the photo, its evidence, the JWKS snapshot, metadata.json
    expect(zip.entries.filter((e) => e.startsWith("photos/"))).toEqual([
      expect.stringMatching(/^photos\/loc_bargello\/cycle-001-overview-img_[0-9a-z]+\.jpg$/),
    ]);
    const metadata = JSON.parse(zip.read("metadata.json").toString("utf8")) as { location_id: string; photos: { location_id: string }[] };
    expect(metadata.location_id).toBe("loc_bargello");
    expect(metadata.photos.map((p) => p.location_id)).toEqual(["loc_bargello"]);
  });

  it("answers 404 for a location the order does not have, another organisation's order, and an unknown order; 401 without a key", async () => {
    const unknownLocation = await api.request("GET", `${ORDERS}/orders/${order.id}/photos.zip?location_id=loc_nowhere`, { token: partner.apiKey });
    expectProblem(unknownLocation, 404, "not_found");
    const stranger = await orderPartner(api);
    expectProblem(await api.request("GET", `${ORDERS}/orders/${order.id}/photos.zip`, { token: stranger.apiKey }), 404, "not_found");
    expectProblem(await api.request("GET", `${ORDERS}/orders/ord_doesnotexist/photos.zip`, { token: partner.apiKey }), 404, "not_found");
    expect((await api.request("GET", `${ORDERS}/orders/${order.id}/photos.zip`)).status).toBe(401);
  });

  it("an order without deliveries gives an archive with metadata.json and the JWKS snapshot only", async () => {
    const empty = await createOrder(api, partner.apiKey, { client_reference: "zip-empty", locations: PLACES.slice(0, 1) });
    const { status, bytes } = await zipOf(`${ORDERS}/orders/${empty.id}/photos.zip`, partner.apiKey);
    expect(status).toBe(200);
    const zip = await unzip(bytes, "empty.zip");
    expect(zip.entries).toEqual(["evidence/jwks.json", "metadata.json"]);
    expect((JSON.parse(zip.read("metadata.json").toString("utf8")) as { photos: unknown[] }).photos).toEqual([]);
  });

  it("a viewer's dashboard token downloads the archive but may not send a photo back or create an order (403)", async () => {
    const viewer = await api.createUser(partner.orgId, { email: `viewer-${Date.now()}@zip.test`, password: "a-long-enough-password", role: "viewer" });
    const { access_token: token, scope } = await api.dashboardToken(viewer.id, partner.orgId);
    expect(scope).toContain("orders:read");
    expect(scope).not.toContain("orders:write");
    expect((await zipOf(`${ORDERS}/orders/${order.id}/photos.zip`, token)).status).toBe(200);
    const photoId =
      (await api.request<{ data: { photo_id: string }[] }>("GET", `${ORDERS}/orders/${order.id}/photos`, { token: partner.apiKey })).body.data[0]?.photo_id ??
      "";
    const retake = await api.request("POST", `${ORDERS}/orders/${order.id}/photos/${photoId}/retake`, {
      token,
      body: { reason: "Forced by a viewer." },
      headers: { "idempotency-key": "viewer-retake" },
    });
    expectProblem(retake, 403, "insufficient_scope");
    expectProblem(
      await api.request("POST", `${ORDERS}/orders`, { token, body: orderBody(), headers: { "idempotency-key": "viewer-create" } }),
      403,
      "insufficient_scope",
    );
    // Nothing was opened: the order's only tasks are the two delivered ones.
    const tasks = await api.request<{ data: { attempt: number }[] }>("GET", `${ORDERS}/orders/${order.id}/assignments`, { token: partner.apiKey });
    expect(tasks.body.data.map((t) => t.attempt)).toEqual([0, 0]);
  });
});
