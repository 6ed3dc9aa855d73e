import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "./harness";
import { TestClient, square } from "./client";
import { createZoomer, photo, submitPhotos, waitForDecision } from "./photos";

let service: TestService;
let api: TestClient;
let partner: Awaited<ReturnType<TestClient["partner"]>>;
let zoomer: { id: string; token: string };

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

async function newMission(requiredImages = 10) {
  const res = await api.request<{ id: string }>("POST", "/api/v1/missions", { token: partner.token, body: { title: "Ponte Vecchio", bounds: square(11.255, 43.768), required_images: requiredImages } });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

beforeAll(async () => {
  service = await startTestService({}, { worker: true });
  api = new TestClient(service);
  partner = await api.partner();
  zoomer = await createZoomer(api);
});
afterAll(() => service.close());

describe("field intake", () => {
  it("accepts a JPEG, keeps its bytes and approves it", async () => {
    const missionId = await newMission();
    const bytes = await photo();
    const res = await submitPhotos(api, zoomer.token, missionId, [{ bytes }], { angle: "front", note: "north side" });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ status: "received", mission_id: missionId, zoomer_id: zoomer.id, image_count: 1, angle: "front" });
    const decided = await waitForDecision(api, partner.token, String(res.body.id));
    expect(decided.reasons).toEqual([]);
    expect(decided.status).toBe("approved");
    const image = decided.images[0] as { sha256: string; url: string; thumbnail_url: string };
    expect(image.sha256).toBe(sha256(bytes));
    const download = await fetch(image.url);
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
  });

  it("rejects a blurry and a dark photo with readable reasons", async () => {
    const missionId = await newMission();
    const res = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo({ blur: 6, seed: 3 }) }, { bytes: await photo({ exposure: 0.12, seed: 4 }) }]);
    expect(res.status).toBe(202);
    const decided = await waitForDecision(api, partner.token, String(res.body.id));
    expect(decided.status).toBe("rejected");
    expect(decided.reasons.join("\n")).toMatch(/Photo 1: .*blurry/);
    expect(decided.reasons.join("\n")).toMatch(/Photo 2: .*too dark/);
  });

  it("refuses a PNG with 415 and stores nothing", async () => {
    const missionId = await newMission();
    const before = await filesUnder(service.runtime.ctx.config.dataDir);
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const res = await submitPhotos(api, zoomer.token, missionId, [{ bytes: await photo() }, { bytes: png, name: "x.jpg", type: "image/jpeg" }]);
    expect(res.status).toBe(415);
    expect(res.body.code).toBe("unsupported_image_type");
    expect(await filesUnder(service.runtime.ctx.config.dataDir)).toEqual(before);
    const list = await api.request<{ meta: { total: number } }>("GET", `/api/v1/missions/${missionId}/submissions`, { token: partner.token });
    expect(list.body.meta.total).toBe(0);
  });
});
