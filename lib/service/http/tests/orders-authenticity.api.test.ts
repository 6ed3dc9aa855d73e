// Spoofing caught, over HTTP: the `authenticity` check on order photos. The real-world case — a
// photo taken 9.3 km away whose EXIF GPS was rewritten with exiftool to 30 m from the target, sent
// with the phone's true position — is held for review with the reason, not delivered, and the
// order is not fulfilled; the account manager rejects it and a retake opens. The relocation of the
// issue (moved and retimed with exiftool) sent without any phone position is still held, by the
// edit traces the retiming leaves; approved at review, it is delivered. The same picture sent for
// another order is held as seen before. A file saved by Windows Photo Gallery is held by its
// editor's name, and the partner's systems hear of it once: `photo.held_for_review`.
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import { readEditTraces } from "@/lib/photos/edit-traces";
import type { Order } from "@/lib/schemas/order";
import { CORPUS_SKIP_MESSAGE, HAS_CORPUS, corpusFile } from "@/lib/testing/corpus";
import { expectProblem } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderPartner } from "./orders-client";
import { createZoomer } from "./photos";
import { pollUntil } from "./poll-until";
import { Receiver } from "./receiver";

const run = promisify(execFile);
let service: TestService;
let api: TestClient;
let receiver: Receiver;
let dir: string;

beforeAll(async () => {
  service = await startTestService({ fulfilment: { weatherUrl: null, analyserUrl: null, localAnalyser: null } }, { worker: true });
  api = new TestClient(service);
  receiver = await Receiver.start();
  dir = await mkdtemp(join(tmpdir(), "pm-authenticity-"));
});
afterAll(async () => {
  await service.close();
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
});

interface Signal {
  signal: string;
  status: string;
  value: unknown;
  message: string;
}
interface Check {
  status: string;
  passed: boolean;
  message: string;
  extra?: { signals?: Signal[] };
}
interface Assignment {
  id: string;
  status: string;
  photo_id: string | null;
  attempt: number;
  instructions: string[];
  instruction_codes: { code: string; params: Record<string, string | number> }[];
  verification: { status: string; ai_checks: Record<string, Check>; instruction_codes?: { code: string; params: Record<string, string | number> }[] } | null;
}
interface FieldTask {
  id: string;
  status: string;
  attempt: number;
  instructions: string[];
  instruction_codes: { code: string; params: Record<string, string | number> }[];
  verification: { instructions: string[]; instruction_codes?: { code: string; params: Record<string, string | number> }[] } | null;
}

/** 30 m due south of the target: facing 0° looks at it. */
const southOf = (target: { lat: number; lng: number }, metres = 30) => ({ lat: target.lat - metres / 111_320, lng: target.lng });
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000) => pollUntil(read, done, timeoutMs, 100);
const exifStamp = (d: Date) => d.toISOString().slice(0, 19).replace("T", " ").replaceAll("-", ":");

async function orderAt(partnerKey: string, target: { lat: number; lng: number }, id: string) {
  await api.request("POST", `${ORDERS}/delivery-secret`, { token: partnerKey });
  const order = await createOrder(api, partnerKey, {
    requirements: { angles: ["front"] },
    locations: [{ location_id: id, name: "Palazzo", coordinates: target }],
    delivery: { webhook_url: `${receiver.url}/delivered` },
  });
  expect((await confirm(api, partnerKey, order.id)).body.status).toBe("in_progress");
  return order;
}

/** Takes the order's one task near `at` and sends the photo by the multipart field route, with the phone's position when given. */
async function sendForTask(token: string, at: { lat: number; lng: number }, bytes: Uint8Array, devicePosition?: { lat: number; lng: number }) {
  const list = await api.request<{ data: FieldTask[] }>("GET", `/api/v1/field/assignments?lat=${at.lat}&lng=${at.lng}&radius_km=1`, { token });
  const task = list.body.data.find((t) => t.status === "open");
  if (!task) throw new Error("no open task");
  expect((await api.request("POST", `/api/v1/field/assignments/${task.id}/take`, { token })).status).toBe(200);
  const form = new FormData();
  form.append("photos", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "photo.jpg");
  if (devicePosition) form.append("device_position", `${devicePosition.lat},${devicePosition.lng},12`);
  const response = await fetch(`${service.url}/api/v1/field/assignments/${task.id}/photo`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(response.status, await response.clone().text()).toBe(202);
  return task.id;
}

const fieldTask = (token: string, id: string) => api.request<FieldTask>("GET", `/api/v1/field/assignments/${id}`, { token });
const assignmentsOf = async (key: string, orderId: string) =>
  (await api.request<{ data: Assignment[] }>("GET", `${ORDERS}/orders/${orderId}/assignments`, { token: key })).body.data;
const signal = (check: Check | undefined, name: string) => check?.extra?.signals?.find((s) => s.signal === name);

describe("authenticity", () => {
  it.skipIf(!HAS_CORPUS)(
    "holds for review a photo taken 9.3 km away whose EXIF GPS exiftool rewrote to 30 m from the target, sent with the phone's true position",
    async () => {
      const partner = await orderPartner(api);
      const target = { lat: 43.7731, lng: 11.256 };
      const order = await orderAt(partner.apiKey, target, "loc_spoof");
      const claimed = southOf(target);
      const truth = southOf(target, 30 + 9300);

      // The camera's own photo, taken now where the zoomer really is (set up from a real Nikon file)…
      const file = join(dir, "spoof.jpg");
      await copyFile(corpusFile("jpg/gps/DSCN0010.jpg"), file);
      const now = new Date();
      const stamp = exifStamp(now);
      await run("exiftool", [
        "-overwrite_original",
        `-GPSLatitude=${truth.lat}`,
        "-GPSLatitudeRef=N",
        `-GPSLongitude=${truth.lng}`,
        "-GPSLongitudeRef=E",
        `-GPSDateStamp=${stamp.slice(0, 10)}`,
        `-GPSTimeStamp=${stamp.slice(11)}`,
        "-GPSImgDirection=1",
        "-GPSImgDirectionRef=T",
        `-DateTimeOriginal=${stamp}`,
        `-CreateDate=${stamp}`,
        `-ModifyDate=${stamp}`,
        "-OffsetTimeOriginal=+00:00",
        file,
      ]);
      const genuine = await readFile(file);
      // …then the spoof: only the GPS position rewritten, to 30 m south of the target.
      await run("exiftool", [
        "-overwrite_original",
        `-GPSLatitude=${claimed.lat}`,
        "-GPSLatitudeRef=N",
        `-GPSLongitude=${claimed.lng}`,
        "-GPSLongitudeRef=E",
        file,
      ]);
      const spoofed = await readFile(file);
      // Measured: exiftool's GPS-only rewrite adds no tag a reader can see (no Software, no XMP) —
      // only the phone's own position gives this one away.
      expect(await readEditTraces(spoofed)).toEqual(await readEditTraces(genuine));

      const zoomer = await createZoomer(api);
      const taskId = await sendForTask(zoomer.token, claimed, spoofed, truth);

      // The zoomer is told only that it needs review.
      const seen = await until(
        () => fieldTask(zoomer.token, taskId),
        (r) => r.body.status !== "submitted",
      );
      expect(seen.body.status).toBe("held_for_review");
      expect(seen.body.verification).toBeNull();

      // The account manager sees why.
      const [held] = await assignmentsOf(partner.apiKey, order.id);
      expect(held?.status).toBe("held_for_review");
      expect(held?.verification?.status).toBe("held");
      const authenticity = held?.verification?.ai_checks.authenticity;
      expect(authenticity).toMatchObject({ status: "failed", passed: false });
      expect(authenticity?.message).toMatch(/Held for review: The phone reported its position 9\.3 km from where the photo's GPS says/);
      expect(signal(authenticity, "device_position")).toMatchObject({ status: "failed" });
      expect(Number(signal(authenticity, "device_position")?.value)).toBeGreaterThan(9200);
      expect(signal(authenticity, "edit_traces")).toMatchObject({ status: "passed" });
      // The EXIF alone would have passed it: that is the spoof.
      expect(held?.verification?.ai_checks.location_match).toMatchObject({ status: "passed" });

      // Not delivered, the order not fulfilled.
      await new Promise((r) => setTimeout(r, 1500));
      expect(receiver.of("photos.delivered")).toHaveLength(0);
      expect((await api.request<{ data: unknown[] }>("GET", `${ORDERS}/orders/${order.id}/photos`, { token: partner.apiKey })).body.data).toEqual([]);
      expect((await api.request<Order>("GET", `${ORDERS}/orders/${order.id}`, { token: partner.apiKey })).body.status).toBe("in_progress");

      // Rejected at review: a retake opens with the reviewer's reason.
      const photoId = held?.photo_id ?? "";
      expectProblem(
        await api.request("POST", `${ORDERS}/orders/${order.id}/photos/${photoId}/review`, { token: partner.apiKey, body: { decision: "reject" } }),
        422,
        "reason_required",
      );
      const rejected = await api.request<{ status: string }>("POST", `${ORDERS}/orders/${order.id}/photos/${photoId}/review`, {
        token: partner.apiKey,
        body: { decision: "reject", reason: "Taken somewhere else." },
      });
      expect(rejected.status, rejected.text).toBe(200);
      expect(rejected.body.status).toBe("failed");
      expectProblem(
        await api.request("POST", `${ORDERS}/orders/${order.id}/photos/${photoId}/review`, { token: partner.apiKey, body: { decision: "approve" } }),
        409,
        "not_held_for_review",
      );
      const after = await assignmentsOf(partner.apiKey, order.id);
      expect(after.map((a) => `${a.attempt}:${a.status}`).sort()).toEqual(["0:failed", "1:open"]);
      const retake = after.find((a) => a.attempt === 1);
      expect(retake?.instructions).toEqual(["The photo was rejected at review: Taken somewhere else."]);
      // The prefix as a code, the reviewer's words as its figure: the pages say it in the reader's language.
      const coded = [{ code: "retake.rejected_at_review", params: { reason: "Taken somewhere else." } }];
      expect(retake?.instruction_codes).toEqual(coded);
      expect(after.find((a) => a.attempt === 0)?.verification?.instruction_codes).toEqual(coded);
      // The zoomer reads them on the retake and on the rejected photo's verdict alike.
      const opened = await fieldTask(zoomer.token, retake?.id ?? "");
      expect(opened.body.instructions).toEqual(["The photo was rejected at review: Taken somewhere else."]);
      expect(opened.body.instruction_codes).toEqual(coded);
      expect((await fieldTask(zoomer.token, taskId)).body.verification?.instruction_codes).toEqual(coded);
      // Another organisation cannot decide it.
      const other = await orderPartner(api);
      expectProblem(
        await api.request("POST", `${ORDERS}/orders/${order.id}/photos/${photoId}/review`, { token: other.apiKey, body: { decision: "approve" } }),
        404,
        "not_found",
      );
    },
    120_000,
  );

  it.skipIf(!HAS_CORPUS)(
    "holds the exiftool-relocated and retimed file sent without a phone position by its edit traces; approved at review, it is delivered",
    async () => {
      const partner = await orderPartner(api);
      const target = { lat: 43.7696, lng: 11.2558 };
      const order = await orderAt(partner.apiKey, target, "loc_retimed");
      const camera = southOf(target);
      const file = join(dir, "retimed.jpg");
      await copyFile(corpusFile("jpg/gps/DSCN0010.jpg"), file);
      await run("exiftool", [
        "-overwrite_original",
        `-GPSLatitude=${camera.lat}`,
        "-GPSLatitudeRef=N",
        `-GPSLongitude=${camera.lng}`,
        "-GPSLongitudeRef=E",
        "-GPSImgDirection=1",
        "-GPSImgDirectionRef=T",
        `-DateTimeOriginal=${exifStamp(new Date())}`,
        "-OffsetTimeOriginal=+00:00",
        file,
      ]);
      const zoomer = await createZoomer(api);
      const bytes = await readFile(file);
      const taskId = await sendForTask(zoomer.token, camera, bytes);
      expect(
        (
          await until(
            () => fieldTask(zoomer.token, taskId),
            (r) => r.body.status !== "submitted",
          )
        ).body.status,
      ).toBe("held_for_review");

      const [held] = await assignmentsOf(partner.apiKey, order.id);
      const authenticity = held?.verification?.ai_checks.authenticity;
      expect(authenticity).toMatchObject({ status: "failed" });
      expect(signal(authenticity, "device_position")).toMatchObject({ status: "not_evaluated" });
      const traces = signal(authenticity, "edit_traces");
      expect(traces).toMatchObject({ status: "failed" });
      // The retiming left the camera's last-modified time (2008) and GPS clock behind.
      expect(traces?.message).toMatch(/last changed .* before it was taken/);
      expect(traces?.message).toMatch(/GPS clock and camera clock are \d+ days apart/);

      const approved = await api.request<{ status: string }>("POST", `${ORDERS}/orders/${order.id}/photos/${held?.photo_id ?? ""}/review`, {
        token: partner.apiKey,
        body: { decision: "approve" },
      });
      expect(approved.status, approved.text).toBe(200);
      expect(approved.body.status).toBe("verified");
      await until(
        () => api.request<Order>("GET", `${ORDERS}/orders/${order.id}`, { token: partner.apiKey }),
        (r) => r.body.status === "fulfilled",
      );
      const delivered = (await receiver.waitFor(1, "photos.delivered", 30_000)).map((r) => r.json.data as { order_id: string; photos: { photo_id: string }[] });
      expect(delivered.find((d) => d.order_id === order.id)?.photos.map((p) => p.photo_id)).toEqual([held?.photo_id]);
      const photos = await api.request<{ data: { metadata: { sha256: string } }[] }>("GET", `${ORDERS}/orders/${order.id}/photos`, { token: partner.apiKey });
      expect(photos.body.data[0]?.metadata.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect((await fieldTask(zoomer.token, taskId)).body.status).toBe("verified");
    },
    120_000,
  );

  if (!HAS_CORPUS) it.skip(CORPUS_SKIP_MESSAGE, () => undefined);

  it("verifies a plain photo sent with a phone position beside its GPS, holds the same picture sent again for another order, and passes the same view shot later", async () => {
    const partner = await orderPartner(api);
    const first = { lat: 20.1, lng: 30.1 };
    const orderA = await orderAt(partner.apiKey, first, "loc_a");
    const zoomer = await createZoomer(api);
    const camera = southOf(first);
    const bytes = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed: 7001 });
    const a = await sendForTask(zoomer.token, camera, bytes, { lat: camera.lat + 0.0002, lng: camera.lng });
    expect(
      (
        await until(
          () => fieldTask(zoomer.token, a),
          (r) => r.body.status !== "submitted",
        )
      ).body.status,
    ).toBe("verified");
    const [done] = await assignmentsOf(partner.apiKey, orderA.id);
    expect(done?.verification?.ai_checks.authenticity).toMatchObject({ status: "passed", passed: true });
    expect(signal(done?.verification?.ai_checks.authenticity, "device_position")).toMatchObject({ status: "passed" });

    // The very same file for another order of the same place: the picture has been seen before.
    const orderB = await orderAt(partner.apiKey, first, "loc_b");
    const b = await sendForTask(zoomer.token, camera, bytes);
    expect(
      (
        await until(
          () => fieldTask(zoomer.token, b),
          (r) => r.body.status !== "submitted",
        )
      ).body.status,
    ).toBe("held_for_review");
    const [held] = await assignmentsOf(partner.apiKey, orderB.id);
    expect(signal(held?.verification?.ai_checks.authenticity, "seen_elsewhere")).toMatchObject({ status: "failed", value: 0 });

    // The same view shot again later (a recurring order's next cycle): the same picture to the
    // hash, but taken at another time — not a copy.
    const orderC = await orderAt(partner.apiKey, first, "loc_c");
    const again = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(Date.now() + 5000), seed: 7001 });
    const c = await sendForTask(zoomer.token, camera, again);
    expect(
      (
        await until(
          () => fieldTask(zoomer.token, c),
          (r) => r.body.status !== "submitted",
        )
      ).body.status,
    ).toBe("verified");
    const [later] = await assignmentsOf(partner.apiKey, orderC.id);
    expect(signal(later?.verification?.ai_checks.authenticity, "seen_elsewhere")).toMatchObject({ status: "passed" });
  }, 120_000);

  it("holds a photo saved by Windows Photo Gallery and sends exactly one photo.held_for_review, with the failed signals' codes, to the order's delivery URL and each subscribed endpoint", async () => {
    const partner = await orderPartner(api);
    const hooks = await api.token(await api.createClient(partner.orgId, ["webhooks:manage"]));
    const register = async (path: string, events: string[]) => {
      const res = await api.request<{ id: string; secret: string }>("POST", "/api/v1/webhooks", {
        token: hooks,
        body: { url: `${receiver.url}${path}`, events },
      });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const subscribed = await register("/held-hooks", ["photo.held_for_review"]);
    await register("/verified-hooks", ["order.photo.verified"]);
    const target = { lat: -12.0464, lng: -77.0428 };
    const order = await orderAt(partner.apiKey, target, "loc_gallery");
    const camera = southOf(target);
    const zoomer = await createZoomer(api);
    const bytes = await makePhoto({
      ...camera,
      accuracyM: 5,
      directionDeg: 0,
      capturedAt: new Date(),
      seed: 7033,
      software: "Microsoft Windows Photo Gallery 6.0.6001.18000",
    });
    const taskId = await sendForTask(zoomer.token, camera, bytes, { lat: camera.lat + 0.0002, lng: camera.lng });
    expect(
      (
        await until(
          () => fieldTask(zoomer.token, taskId),
          (r) => r.body.status !== "submitted",
        )
      ).body.status,
    ).toBe("held_for_review");

    const [held] = await assignmentsOf(partner.apiKey, order.id);
    const traces = signal(held?.verification?.ai_checks.authenticity, "edit_traces");
    expect(traces).toMatchObject({ status: "failed" });
    expect(traces?.message).toMatch(/written by Windows Photo Gallery/);

    const heldOf = (path: string) => receiver.of("photo.held_for_review").filter((r) => r.path === path && r.json.data.order_id === order.id);
    await until(
      async () => heldOf("/held-hooks").length + heldOf("/delivered").length,
      (n) => n >= 2,
    );
    // Nothing more arrives: one event, one delivery per target.
    await new Promise((r) => setTimeout(r, 1500));
    expect(heldOf("/held-hooks")).toHaveLength(1);
    expect(heldOf("/delivered")).toHaveLength(1);
    expect(receiver.requests.filter((r) => r.path === "/verified-hooks")).toHaveLength(0);

    const [request] = heldOf("/held-hooks");
    expect(request?.json.data).toEqual({
      order_id: order.id,
      mission_id: expect.any(String) as string,
      location_id: "loc_gallery",
      location_name: "Palazzo",
      cycle_index: 0,
      assignment_id: held?.id,
      angle: "front",
      attempt: 0,
      photo_id: held?.photo_id,
      held_at: expect.any(String) as string,
      failed_signals: [
        {
          signal: "edit_traces",
          code: "edit_traces.found",
          params: { traces: "editor", editor: "Windows Photo Gallery (“Microsoft Windows Photo Gallery 6.0.6001.18000”)" },
          message: expect.stringMatching(/^Signs of editing: the file was written by Windows Photo Gallery/) as string,
        },
      ],
    });
    expect(heldOf("/delivered")[0]?.json.id).toBe(request?.json.id);
    // Signed as every webhook: the official Standard Webhooks library verifies it with the secret as shown.
    const headers = Object.fromEntries(Object.entries(request?.headers ?? {}).map(([name, value]) => [name, String(value)]));
    expect(new Webhook(subscribed.secret).verify(request?.raw.toString("utf8") ?? "", headers)).toMatchObject({ event: "photo.held_for_review" });

    // Deciding it sends the verdict, not another held event.
    const approved = await api.request<{ status: string }>("POST", `${ORDERS}/orders/${order.id}/photos/${held?.photo_id ?? ""}/review`, {
      token: partner.apiKey,
      body: { decision: "approve" },
    });
    expect(approved.status, approved.text).toBe(200);
    await until(
      async () => receiver.of("order.photo.verified").filter((r) => r.json.data.order_id === order.id).length,
      (n) => n >= 1,
    );
    expect(heldOf("/held-hooks")).toHaveLength(1);
    expect(heldOf("/delivered")).toHaveLength(1);
  }, 120_000);
});
