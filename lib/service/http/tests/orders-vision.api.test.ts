// The local vision model out of the box, over HTTP: an order photo's `obstruction` is evaluated
// with its measured share and the boxes, a crowd order's `minimum_crowd` with the people counted,
// and the preview people are shown has the faces blurred. The photo is a real one (a group by a
// pool, lib/service/verification/vision/fixtures) with the camera's EXIF written on it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import { analyseImage } from "@/lib/photos/analyse-image";
import { headRegions, type Box } from "@/lib/photos/blur-faces";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { confirm, createOrder, orderPartner } from "./orders-client";
import { createZoomer } from "./photos";

let service: TestService;
let api: TestClient;

beforeAll(async () => {
  service = await startTestService({ fulfilment: { weatherUrl: null, analyserUrl: null, localAnalyser: "vision" }, blurFaces: true }, { worker: true });
  api = new TestClient(service);
});
afterAll(() => service.close());

interface Check {
  status: string;
  value: number | string | null;
  threshold: number | string | null;
  message: string;
  extra?: Record<string, unknown>;
}
interface Task {
  id: string;
  angle: string;
  verification: { status: string; ai_checks: Record<string, Check> } | null;
}

const GROUP = readFileSync(join(import.meta.dirname, "../../verification/vision/fixtures/poolside-group.jpg"));
// The model loads in ≈2 s and reads a photo in ≈0.5 s on an idle core; a loaded CI machine is slower.
const TIMEOUT_MS = 120_000;

describe("local vision model", () => {
  it("evaluates obstruction and counts the crowd of an order photo, and blurs faces in its preview", { timeout: TIMEOUT_MS }, async () => {
    const partner = await orderPartner(api);
    const target = { lat: 45.4642, lng: 9.19 };
    const order = await createOrder(api, partner.apiKey, {
      requirements: { angles: ["front"], minimum_crowd: "moderate" },
      locations: [{ location_id: "loc_pool", name: "Pool House", coordinates: target }],
    });
    expect((await confirm(api, partner.apiKey, order.id)).body.status).toBe("in_progress");
    const zoomer = await createZoomer(api);
    const camera = { lat: target.lat - 30 / 111_320, lng: target.lng };
    const tasks = (await api.request<{ data: Task[] }>("GET", `/api/v1/field/assignments?lat=${camera.lat}&lng=${camera.lng}&radius_km=1`, { token: zoomer.token })).body.data;
    const front = tasks.find((t) => t.angle === "front");
    if (!front) throw new Error("no front task");
    expect((await api.request("POST", `/api/v1/field/assignments/${front.id}/take`, { token: zoomer.token })).status).toBe(200);

    const photo = await makePhoto({ scene: GROUP, width: 1600, height: 1200, ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date() });
    const form = new FormData();
    form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "group.jpg");
    const sent = await fetch(`${service.url}/api/v1/field/assignments/${front.id}/photo`, { method: "POST", headers: { authorization: `Bearer ${zoomer.token}` }, body: form });
    expect(sent.status).toBe(202);

    let task: Task | undefined;
    for (const deadline = Date.now() + TIMEOUT_MS - 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      const res = await api.request<Task>("GET", `/api/v1/field/assignments/${front.id}`, { token: zoomer.token });
      if (res.body.verification) {
        task = res.body;
        break;
      }
    }
    const checks = task?.verification?.ai_checks;
    // The group stands across the frame, close to the camera: the view of the house is blocked.
    expect(checks?.obstruction).toMatchObject({ status: "failed", threshold: "at most 30 % of the part of the frame toward the target covered" });
    expect(checks?.obstruction?.value).toBeGreaterThan(0.3);
    expect(checks?.obstruction?.message).toMatch(/people close to the camera cover \d+ % of the part of the frame toward the target/);
    const detections = checks?.obstruction?.extra?.detections as { label: string; box: number[] }[];
    expect(detections.filter((d) => d.label === "person").length).toBeGreaterThanOrEqual(6);
    expect(checks?.minimum_crowd).toMatchObject({ status: "passed", extra: { crowd_level: "moderate" } });
    expect(checks?.minimum_crowd?.value).toMatch(/^\d+ people \(moderate\)$/);

    // Faces blurred in what people are shown; the original kept byte for byte.
    const [image] = await service.runtime.ctx.db.query.images.findMany({ limit: 1 });
    if (!image?.previewKey) throw new Error("no preview stored");
    const stored = await readStored(image.previewKey);
    const plain = (await analyseImage(photo, { maxPixels: 50_000_000 })).derivatives.preview;
    const heads = headRegions(detections.filter((d) => d.label === "person").map((d) => d.box as Box));
    const [head] = heads;
    if (!head) throw new Error("no head");
    expect(await detail(stored, head)).toBeLessThan((await detail(plain, head)) / 2);
    expect(await readStored(image.storageKey)).toEqual(photo);
  });
});

async function readStored(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await service.runtime.ctx.store.read(key)) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Detail (mean absolute difference between neighbours) in a region of a JPEG, on a 320 px grey copy. */
async function detail(jpeg: Buffer, [x, y, w, h]: Box): Promise<number> {
  const { data, info } = await sharp(jpeg).greyscale().resize(320, 320, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  let n = 0;
  for (let row = Math.floor(y * info.height); row < Math.floor((y + h) * info.height); row++) {
    for (let col = Math.floor(x * info.width); col < Math.floor((x + w) * info.width) - 1; col++) {
      sum += Math.abs((data[row * info.width + col] ?? 0) - (data[row * info.width + col + 1] ?? 0));
      n++;
    }
  }
  return sum / Math.max(1, n);
}
