// Resumable field uploads (tus 1.0.0 at /api/v1/field/uploads) end to end over real HTTP, on
// local disk and on an S3-protocol server: creation, creation-with-upload, resume after a cut
// connection, wrong offsets, termination, the expiry sweep, auth, caps and sniffing, and exactly
// once (one photo, one submission, however it is resent). Also the device evidence stored beside
// the EXIF, from tus metadata and from the multipart form fields.
import { createHash, randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fieldUploads, submissions } from "@/lib/db/schema";
import { sweepFieldUploads } from "@/lib/service/field/sweep-field-uploads";
import { fieldUploadStore } from "@/lib/service/field/field-upload-store";
import { startS3TestServer, type S3TestServer } from "@/lib/testing/s3-test-server";
import type { ServiceConfig } from "@/lib/service/context";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderPartner } from "./orders-client";
import { createZoomer, photo, submitPhotos } from "./photos";
import { pollUntil } from "./poll-until";

const LIMITS = { rateLimit: { perMinute: 100_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } };
const UPLOADS = "/api/v1/field/uploads";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
export const encodeMetadata = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(",");

interface TusAnswer {
  status: number;
  headers: Headers;
  text: string;
}

async function tus(url: string, method: string, token: string | null, headers: Record<string, string> = {}, body?: Uint8Array): Promise<TusAnswer> {
  const response = await fetch(url, {
    method,
    headers: {
      "tus-resumable": "1.0.0",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { "content-type": "application/offset+octet-stream" } : {}),
      ...headers,
    },
    body: body ? new Uint8Array(body) : undefined,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Sends `bytes` as a PATCH body and cuts the connection after `sendBytes` of them. */
function patchAndCut(url: string, token: string, offset: number, bytes: Uint8Array, sendBytes: number): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(url, {
      method: "PATCH",
      headers: {
        "tus-resumable": "1.0.0",
        authorization: `Bearer ${token}`,
        "content-type": "application/offset+octet-stream",
        "upload-offset": String(offset),
        "content-length": String(bytes.length),
      },
    });
    req.on("error", () => resolve());
    req.on("response", (res) => {
      res.resume();
      resolve();
    });
    req.write(bytes.subarray(0, sendBytes), () => {
      // Give the server a moment to take the bytes in, then drop the connection like a lost signal.
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
  });
}

async function waitForOffset(url: string, token: string, atLeast: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const head = await tus(url, "HEAD", token);
    const offset = Number(head.headers.get("upload-offset"));
    if (head.status === 200 && offset >= atLeast) return offset;
    if (Date.now() > deadline) throw new Error(`offset stayed ${offset} (${head.status})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function suite(name: string, storage: () => ServiceConfig["storage"]) {
  describe(name, () => {
    let service: TestService;
    let api: TestClient;
    let partner: Awaited<ReturnType<TestClient["partner"]>>;
    let zoomer: { id: string; token: string };
    let other: { id: string; token: string };

    beforeAll(async () => {
      service = await startTestService({ ...LIMITS, uploads: { maxFileBytes: 12 * 1024 * 1024, maxPhotos: 5, maxPixels: 40_000_000 }, storage: storage() });
      api = new TestClient(service);
      partner = await api.partner();
      zoomer = await createZoomer(api);
      other = await createZoomer(api);
    });
    afterAll(() => service.close());

    const create = (token: string | null, length: number, metadata: Record<string, string>, body?: Uint8Array) =>
      tus(`${service.url}${UPLOADS}`, "POST", token, { "upload-length": String(length), "upload-metadata": encodeMetadata(metadata) }, body);

    const submissionsOf = async (missionId: string) => service.runtime.ctx.db.select().from(submissions).where(eq(submissions.missionId, missionId));

    it("answers tus discovery without a token", async () => {
      const res = await fetch(`${service.url}${UPLOADS}`, { method: "OPTIONS" });
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get("tus-version")).toBe("1.0.0");
      expect(res.headers.get("tus-extension")).toMatch(/creation/);
      expect(res.headers.get("tus-extension")).toMatch(/termination/);
      expect(res.headers.get("tus-extension")).toMatch(/expiration/);
      expect(res.headers.get("tus-max-size")).toBe(String(service.runtime.ctx.config.uploads.maxFileBytes));
    });

    it("creation, then two PATCHes: the last one answers Submission-Id, with the device evidence beside the EXIF", async () => {
      const mission = await api.createMission(partner.token);
      const bytes = await photo({ seed: 1 });
      // The phone says it stood 9.3 km east of where the photo's GPS (43.7705, 11.2575) says.
      const created = await create(zoomer.token, bytes.length, {
        target: mission.id,
        angle: "front",
        filename: "IMG_0001.jpg",
        device_position: "43.7705,11.3735,12",
        captured_at: new Date(Date.now() - 60_000).toISOString(),
        heading_deg: "95",
      });
      expect(created.status, created.text).toBe(201);
      const url = created.headers.get("location") ?? "";
      expect(url).toMatch(new RegExp(`^${service.url}${UPLOADS}/upl_[0-9a-z]{26}$`));
      expect(created.headers.get("upload-expires")).toBeTruthy();

      const half = Math.floor(bytes.length / 2);
      const first = await tus(url, "PATCH", zoomer.token, { "upload-offset": "0" }, bytes.subarray(0, half));
      expect(first.status, first.text).toBe(204);
      expect(first.headers.get("upload-offset")).toBe(String(half));
      expect(first.headers.get("submission-id")).toBeNull();
      const last = await tus(url, "PATCH", zoomer.token, { "upload-offset": String(half) }, bytes.subarray(half));
      expect(last.status, last.text).toBe(204);
      const submissionId = last.headers.get("submission-id") ?? "";
      expect(submissionId).toMatch(/^sub_/);

      const own = await api.request<{ id: string; angle: string; device_evidence: Record<string, unknown> }>(
        "GET",
        `/api/v1/field/submissions/${submissionId}`,
        { token: zoomer.token },
      );
      expect(own.status, own.text).toBe(200);
      expect(own.body.angle).toBe("front");
      expect(own.body.device_evidence).toMatchObject({ position: { lat: 43.7705, lng: 11.3735, accuracy_m: 12 }, heading_deg: 95 });
      expect(Number(own.body.device_evidence.distance_from_exif_m)).toBeGreaterThan(9_300);
      expect(Number(own.body.device_evidence.distance_from_exif_m)).toBeLessThan(9_400);
      expect(Number(own.body.device_evidence.capture_to_upload_s)).toBeGreaterThanOrEqual(0);
      expect(Number(own.body.device_evidence.capture_to_upload_s)).toBeLessThan(120);

      const asJson = await api.request<{ status: string; submission_id: string; offset: number }>("GET", new URL(url).pathname, { token: zoomer.token });
      expect(asJson.body).toMatchObject({ status: "received", submission_id: submissionId, offset: bytes.length });
    });

    it("creation-with-upload: the whole photo in the POST", async () => {
      const mission = await api.createMission(partner.token);
      const bytes = await photo({ seed: 2 });
      const created = await create(zoomer.token, bytes.length, { target: mission.id, angle: "entrance", filename: "a.jpg" }, bytes);
      expect(created.status, created.text).toBe(201);
      expect(created.headers.get("upload-offset")).toBe(String(bytes.length));
      expect(created.headers.get("submission-id")).toMatch(/^sub_/);
      expect(await submissionsOf(mission.id)).toHaveLength(1);
    });

    it("resumes after a cut connection: HEAD shows the offset kept, PATCH sends the rest", async () => {
      const mission = await api.createMission(partner.token);
      const bytes = Buffer.concat([await photo({ seed: 3 }), randomBytes(7 * 1024 * 1024)]);
      const created = await create(zoomer.token, bytes.length, { target: mission.id, angle: "front", filename: "big.jpg" });
      const url = created.headers.get("location") ?? "";
      // The signal drops after 6 MiB. The file store keeps every byte that arrived; the S3 store
      // keeps whole 5 MiB parts (S3's smallest), so at least 5 MiB survive on either.
      await patchAndCut(url, zoomer.token, 0, bytes, 6 * 1024 * 1024);
      const offset = await waitForOffset(url, zoomer.token, 5 * 1024 * 1024);
      expect(offset).toBeLessThanOrEqual(6 * 1024 * 1024);
      expect(await submissionsOf(mission.id)).toHaveLength(0);

      const rest = await tus(url, "PATCH", zoomer.token, { "upload-offset": String(offset) }, bytes.subarray(offset));
      expect(rest.status, rest.text).toBe(204);
      const submissionId = rest.headers.get("submission-id") ?? "";
      expect(submissionId).toMatch(/^sub_/);
      const images = await api.request<{ data: { sha256: string; byte_size: number }[] }>("GET", `/api/v1/submissions/${submissionId}/images`, {
        token: partner.token,
      });
      expect(images.body.data[0]?.byte_size).toBe(bytes.length);
      expect(images.body.data[0]?.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    });

    it("a wrong Upload-Offset is 409 and changes nothing", async () => {
      const mission = await api.createMission(partner.token);
      const bytes = await photo({ seed: 4 });
      const url = (await create(zoomer.token, bytes.length, { target: mission.id, angle: "front" })).headers.get("location") ?? "";
      await tus(url, "PATCH", zoomer.token, { "upload-offset": "0" }, bytes.subarray(0, 1000));
      const wrong = await tus(url, "PATCH", zoomer.token, { "upload-offset": "500" }, bytes.subarray(500));
      expect(wrong.status).toBe(409);
      expect((await tus(url, "HEAD", zoomer.token)).headers.get("upload-offset")).toBe("1000");
    });

    it("termination: DELETE removes the upload; it is 404 afterwards", async () => {
      const mission = await api.createMission(partner.token);
      const bytes = await photo({ seed: 5 });
      const url = (await create(zoomer.token, bytes.length, { target: mission.id, angle: "front" })).headers.get("location") ?? "";
      await tus(url, "PATCH", zoomer.token, { "upload-offset": "0" }, bytes.subarray(0, 2000));
      const deleted = await tus(url, "DELETE", zoomer.token);
      expect(deleted.status, deleted.text).toBe(204);
      expect((await tus(url, "HEAD", zoomer.token)).status).toBe(404);
      expect((await tus(url, "PATCH", zoomer.token, { "upload-offset": "2000" }, bytes.subarray(2000))).status).toBe(404);
      expect(await submissionsOf(mission.id)).toHaveLength(0);
    });

    it("sweeps expired partial uploads: bytes and row gone, HEAD 404", async () => {
      const mission = await api.createMission(partner.token);
      const bytes = await photo({ seed: 6 });
      const url = (await create(zoomer.token, bytes.length, { target: mission.id, angle: "front" })).headers.get("location") ?? "";
      await tus(url, "PATCH", zoomer.token, { "upload-offset": "0" }, bytes.subarray(0, 3000));
      const id = url.split("/").at(-1) ?? "";
      const { ctx } = service.runtime;
      expect((await sweepFieldUploads(ctx)).rows).toBe(0);
      const swept = await sweepFieldUploads(ctx, new Date(Date.now() + 49 * 3600_000));
      expect(swept.rows).toBeGreaterThanOrEqual(1);
      expect(await ctx.db.select().from(fieldUploads).where(eq(fieldUploads.id, id))).toEqual([]);
      await expect(fieldUploadStore(ctx.config).datastore.getUpload(id)).rejects.toBeTruthy();
      expect((await tus(url, "HEAD", zoomer.token)).status).toBe(404);
    });

    it("auth: no token is 401; another zoomer's upload is 404 to HEAD, PATCH and DELETE", async () => {
      const mission = await api.createMission(partner.token);
      const bytes = await photo({ seed: 7 });
      expect((await create(null, bytes.length, { target: mission.id, angle: "front" })).status).toBe(401);
      expect((await create(partner.token, bytes.length, { target: mission.id, angle: "front" })).status).toBe(403);
      const url = (await create(zoomer.token, bytes.length, { target: mission.id, angle: "front" })).headers.get("location") ?? "";
      expect((await tus(url, "HEAD", null)).status).toBe(401);
      expect((await tus(url, "HEAD", other.token)).status).toBe(404);
      expect((await tus(url, "PATCH", other.token, { "upload-offset": "0" }, bytes)).status).toBe(404);
      expect((await tus(url, "DELETE", other.token)).status).toBe(404);
      expect((await tus(url, "HEAD", zoomer.token)).headers.get("upload-offset")).toBe("0");
    });

    it("caps: Upload-Length over the cap is 413; bad metadata is 400/422; a non-JPEG is refused by sniffing, every time", async () => {
      const mission = await api.createMission(partner.token);
      const max = service.runtime.ctx.config.uploads.maxFileBytes;
      const tooBig = await create(zoomer.token, max + 1, { target: mission.id, angle: "front" });
      expect(tooBig.status).toBe(413);
      expect(JSON.parse(tooBig.text)).toMatchObject({ code: "file_too_large" });
      expect((await create(zoomer.token, 100, { angle: "front" })).status).toBe(400);
      expect((await create(zoomer.token, 100, { target: mission.id, angle: "sideways" })).status).toBe(422);
      expect((await create(zoomer.token, 100, { target: mission.id, device_position: "north" })).status).toBe(422);
      expect((await create(zoomer.token, 100, { target: "mission_00000000000000000000000000", angle: "front" })).status).toBe(404);

      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(5000)]);
      const url = (await create(zoomer.token, png.length, { target: mission.id, angle: "front", filename: "x.png" })).headers.get("location") ?? "";
      const refused = await tus(url, "PATCH", zoomer.token, { "upload-offset": "0" }, png);
      expect(refused.status, refused.text).toBe(415);
      expect(refused.headers.get("content-type")).toMatch(/problem\+json/);
      expect(JSON.parse(refused.text)).toMatchObject({ code: "unsupported_image_type" });
      // A retried final PATCH and a HEAD hear the same refusal; nothing was recorded.
      expect((await tus(url, "PATCH", zoomer.token, { "upload-offset": String(png.length) }, new Uint8Array(0))).status).toBe(415);
      expect((await tus(url, "HEAD", zoomer.token)).status).toBe(415);
      expect(await submissionsOf(mission.id)).toHaveLength(0);

      // A phone's video is refused on its first bytes, not after the whole file went up (a HEIC is a photo: heic.api.test.ts).
      const videoStart = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypqt  "), randomBytes(4000)]);
      const early = await create(zoomer.token, 3_000_000, { target: mission.id, angle: "front", filename: "IMG_0002.MOV" }, videoStart);
      expect(early.status, early.text).toBe(415);
      expect(JSON.parse(early.text)).toMatchObject({ code: "unsupported_image_type" });
      const later = (await create(zoomer.token, 3_000_000, { target: mission.id, angle: "front" })).headers.get("location") ?? "";
      expect((await tus(later, "PATCH", zoomer.token, { "upload-offset": "0" }, videoStart)).status).toBe(415);
      expect((await tus(later, "HEAD", zoomer.token)).status).toBe(415);
    });

    it("exactly once: a retried final PATCH, a HEAD after it, and the same photo uploaded again make one submission", async () => {
      const mission = await api.createMission(partner.token);
      const bytes = await photo({ seed: 8 });
      const meta = { target: mission.id, angle: "front", filename: "same.jpg" };
      const url = (await create(zoomer.token, bytes.length, meta)).headers.get("location") ?? "";
      const done = await tus(url, "PATCH", zoomer.token, { "upload-offset": "0" }, bytes);
      const submissionId = done.headers.get("submission-id");
      expect(submissionId).toMatch(/^sub_/);

      const retried = await tus(url, "PATCH", zoomer.token, { "upload-offset": String(bytes.length) }, new Uint8Array(0));
      expect(retried.status).toBe(204);
      expect(retried.headers.get("submission-id")).toBe(submissionId);
      const head = await tus(url, "HEAD", zoomer.token);
      expect(head.headers.get("upload-offset")).toBe(String(bytes.length));
      expect(head.headers.get("submission-id")).toBe(submissionId);

      const again = await create(zoomer.token, bytes.length, meta, bytes);
      expect(again.status).toBe(201);
      expect(again.headers.get("submission-id")).toBe(submissionId);
      // Both at once: still one.
      const [x, y] = await Promise.all([create(zoomer.token, bytes.length, meta, bytes), create(zoomer.token, bytes.length, meta, bytes)]);
      expect([x.headers.get("submission-id"), y.headers.get("submission-id")]).toEqual([submissionId, submissionId]);
      expect(await submissionsOf(mission.id)).toHaveLength(1);
      const counted = await api.request<{ submissions: number }>("GET", `/api/v1/missions/${mission.id}`, { token: partner.token });
      expect(counted.body.submissions).toBe(1);
    });
  });
}

suite("tus field uploads on local disk", () => undefined);

describe("on an S3-protocol server", () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3TestServer();
  });
  afterAll(() => s3.close());
  suite("tus field uploads on S3", () => ({ kind: "s3", ...s3.storeConfig() }));
});

describe("device evidence on the multipart field route", () => {
  let service: TestService;
  let api: TestClient;
  beforeAll(async () => {
    service = await startTestService(LIMITS);
    api = new TestClient(service);
  });
  afterAll(() => service.close());

  it("stores device_position, captured_at and heading_deg beside the EXIF, with their distance and the capture-to-upload gap", async () => {
    const partner = await api.partner();
    const zoomer = await createZoomer(api);
    const mission = await api.createMission(partner.token);
    const res = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: await photo({ seed: 9, capturedAt: new Date(Date.now() - 3600_000) }) }], {
      device_position: "43.7705,11.3735,8",
      captured_at: new Date(Date.now() - 3600_000).toISOString(),
      heading_deg: "90",
    });
    expect(res.status, res.text).toBe(202);
    const evidence = res.body.device_evidence as Record<string, number | null>;
    expect(evidence.distance_from_exif_m).toBeGreaterThan(9_300);
    expect(evidence.capture_to_upload_s).toBeGreaterThan(3500);
    const partnerView = await api.request<{ device_evidence: Record<string, unknown> }>("GET", `/api/v1/submissions/${String(res.body.id)}`, {
      token: partner.token,
    });
    expect(partnerView.body.device_evidence).toMatchObject({ position: { lat: 43.7705, lng: 11.3735, accuracy_m: 8 }, heading_deg: 90 });

    const bad = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: await photo({ seed: 10 }) }], { device_position: "43.7705;11.3" });
    expect(bad.status).toBe(422);
    expect((bad.body.errors as { pointer: string }[])[0]?.pointer).toBe("device_position");
  });
});

describe("tus upload of an order task's photo", () => {
  let service: TestService;
  let api: TestClient;
  beforeAll(async () => {
    service = await startTestService(LIMITS, { worker: true });
    api = new TestClient(service);
  });
  afterAll(() => service.close());

  it("targets a task the zoomer holds (asg_…), submits it once, and the delivered photo carries the device evidence", async () => {
    const partner = await orderPartner(api);
    const target = { lat: 43.7731, lng: 11.256 };
    const order = await createOrder(api, partner.apiKey, {
      requirements: { angles: ["overview"] },
      locations: [{ location_id: "loc_tus", name: "Tus Square", coordinates: target }],
    });
    expect((await confirm(api, partner.apiKey, order.id)).body.status).toBe("in_progress");
    const zoomer = await createZoomer(api);
    const other = await createZoomer(api);
    const tasks = await api.request<{ data: { id: string }[] }>("GET", `/api/v1/field/assignments?lat=${target.lat}&lng=${target.lng}&radius_km=1`, {
      token: zoomer.token,
    });
    const taskId = tasks.body.data[0]?.id ?? "";
    expect((await api.request("POST", `/api/v1/field/assignments/${taskId}/take`, { token: zoomer.token })).status).toBe(200);

    const bytes = await photo({ lat: target.lat - 0.0002, lng: target.lng, directionDeg: 0, seed: 11 });
    const meta = { target: taskId, filename: "task.jpg", device_position: `${target.lat - 0.0002},${target.lng},6` };
    const create = (token: string) =>
      tus(`${service.url}${UPLOADS}`, "POST", token, { "upload-length": String(bytes.length), "upload-metadata": encodeMetadata(meta) }, bytes);
    // Another zoomer cannot aim at a task they do not hold: the same answer as the multipart door's.
    const refused = await create(other.token);
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text)).toMatchObject({ code: "assignment_not_reserved" });
    const sent = await create(zoomer.token);
    expect(sent.status, sent.text).toBe(201);
    const submissionId = sent.headers.get("submission-id");
    expect(submissionId).toMatch(/^sub_/);
    // Sent again after the task was submitted: the same submission, nothing new.
    expect((await create(zoomer.token)).headers.get("submission-id")).toBe(submissionId);

    const delivered = await pollUntil(
      () =>
        api.request<{ data: { metadata: { device_evidence: { distance_from_exif_m: number | null; position: unknown } | null } }[] }>(
          "GET",
          `${ORDERS}/orders/${order.id}/photos`,
          { token: partner.apiKey },
        ),
      (res) => res.body.data.length > 0,
      30_000,
      100,
    );
    const evidence = delivered.body.data[0]?.metadata.device_evidence;
    expect(evidence?.position).toEqual({ lat: target.lat - 0.0002, lng: target.lng, accuracy_m: 6 });
    expect(evidence?.distance_from_exif_m).toBeLessThan(1);
    const task = await api.request<{ submission_id: string; status: string }>("GET", `/api/v1/field/assignments/${taskId}`, { token: zoomer.token });
    expect(task.body.submission_id).toBe(submissionId);
  });
});
