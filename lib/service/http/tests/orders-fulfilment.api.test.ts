// Order fulfilment over HTTP: a confirmed order's tasks near a zoomer, take, submit, QA, then
// verification (place, direction, time of day, quality) — a photo facing away is retaken with an
// instruction, the location's verified set is delivered as `photos.delivered` (the spec's record,
// signed with the order-delivery secret), the order ends fulfilled; a location that fails all its
// retakes is given up and refunded. (A real camera file moved and retimed with exiftool is held for
// review: orders-authenticity.api.test.ts.)
import { createHash, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import type { Order } from "@/lib/schemas/order";
import { expectProblem } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderPartner } from "./orders-client";
import { createZoomer, submitPhotos } from "./photos";
import { Receiver, verifies } from "./receiver";
import { pollUntil } from "./poll-until";
import { startWeatherStandIn, type WeatherStandIn } from "./weather-stand-in";

let service: TestService;
let api: TestClient;
let receiver: Receiver;

/** The weather service's stand-in: 21.5 °C, partly cloudy, every hour. */
let weather: WeatherStandIn;

beforeAll(async () => {
  weather = await startWeatherStandIn((query) => {
    const day = query.get("start_date") ?? "";
    const time = Array.from({ length: 24 }, (_, h) => `${day}T${String(h).padStart(2, "0")}:00`);
    return { time, temperature_2m: time.map(() => 21.5), weather_code: time.map(() => 2) };
  });
  // The local OCR analyser reads brands (only the brand test asks for one).
  service = await startTestService({ fulfilment: { weatherUrl: weather.url, analyserUrl: null, localAnalyser: "ocr" } }, { worker: true });
  api = new TestClient(service);
  receiver = await Receiver.start();
});
afterAll(async () => {
  await service.close();
  await receiver.close();
  await weather.close();
});

/** A place where it is about noon now (so "daylight" holds whenever the test runs), 20° N. */
function noonPlace(offsetDeg = 0) {
  const now = new Date();
  const hours = now.getUTCHours() + now.getUTCMinutes() / 60;
  let lng = (12 - hours) * 15 + offsetDeg;
  if (lng > 180) lng -= 360;
  if (lng < -180) lng += 360;
  return { lat: 20, lng };
}

/** 30 m due south of the target: facing 0° looks at it, 180° away from it. */
const southOf = (target: { lat: number; lng: number }, metres = 30) => ({ lat: target.lat - metres / 111_320, lng: target.lng });

interface Task {
  id: string;
  status: string;
  angle: string;
  attempt: number;
  instructions: string[];
  instruction_codes: { code: string; params: Record<string, string | number> }[];
  distance_m: number;
  bearing_deg: number;
  window: unknown;
  deadline_at: string;
  verification: {
    status: string;
    ai_checks: Record<string, { status: string; passed: boolean; score: number; instruction: string | null }>;
    instructions: string[];
  } | null;
}

/**
 * A zoomer's call as the field app makes it: a 429 (the zoomer's 60 requests a minute, spent by a
 * poll while QA is slow on a loaded machine) is waited out for its Retry-After, then sent again.
 */
async function politely<R extends { status: number; headers: Headers }>(send: () => Promise<R>, timeoutMs = 120_000): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await send();
    if (res.status !== 429 || Date.now() > deadline) return res;
    const waitMs = Number(res.headers.get("retry-after") ?? "1") * 1000;
    await new Promise((r) => setTimeout(r, Math.max(250, Math.min(waitMs, deadline - Date.now()))));
  }
}

const tasksNear = async (token: string, at: { lat: number; lng: number }) => {
  const res = await politely(() => api.request<{ data: Task[] }>("GET", `/api/v1/field/assignments?lat=${at.lat}&lng=${at.lng}&radius_km=1`, { token }));
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};

const take = (token: string, taskId: string) => politely(() => api.request<Task>("POST", `/api/v1/field/assignments/${taskId}/take`, { token }));

async function submitTask(token: string, taskId: string, bytes: Uint8Array) {
  const response = await politely(() => {
    const form = new FormData();
    form.append("photos", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "task.jpg");
    return fetch(`${service.url}/api/v1/field/assignments/${taskId}/photo`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Waits until the task has its verdict. Polled twice a second at most, which leaves the zoomer most
 * of its 60 requests a minute for the calls after this wait when QA is slow (a loaded machine).
 */
async function verified(token: string, taskId: string, timeoutMs = 30_000): Promise<Task> {
  const read = () => politely(() => api.request<Task>("GET", `/api/v1/field/assignments/${taskId}`, { token }), timeoutMs);
  return (await pollUntil(read, (res) => res.status === 200 && Boolean(res.body.verification), timeoutMs, 500)).body;
}

const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000) => pollUntil(read, done, timeoutMs, 100);

let seed = 100;
const shot = (at: { lat: number; lng: number }, directionDeg: number) => makePhoto({ ...at, accuracyM: 5, directionDeg, capturedAt: new Date(), seed: seed++ });

describe("order fulfilment", () => {
  it("takes, verifies, retakes a photo facing away, delivers the set signed, and fulfils the order", async () => {
    const partner = await orderPartner(api);
    const { body: secret } = await api.request<{ secret: string }>("POST", `${ORDERS}/delivery-secret`, { token: partner.apiKey });
    const target = noonPlace();
    const order = await createOrder(api, partner.apiKey, {
      requirements: { angles: ["front", "overview"], time_of_day: "daylight" },
      locations: [{ location_id: "loc_noon", name: "Noon Tower", coordinates: target }],
      delivery: { webhook_url: `${receiver.url}/delivered` },
    });
    expect((await confirm(api, partner.apiKey, order.id)).body.status).toBe("in_progress");

    const zoomer = await createZoomer(api);
    const camera = southOf(target);
    const tasks = await tasksNear(zoomer.token, camera);
    expect(tasks.map((t) => t.angle).sort()).toEqual(["front", "overview"]);
    const front = tasks.find((t) => t.angle === "front");
    const overview = tasks.find((t) => t.angle === "overview");
    if (!front || !overview) throw new Error("tasks missing");
    expect(front).toMatchObject({ status: "open", attempt: 0, instructions: [], distance_m: 30, bearing_deg: 0 });

    // Order missions are tasks, not free-for-all missions.
    const missions = await api.request<{ data: { id: string }[] }>("GET", `${ORDERS}/orders/${order.id}/missions`, { token: partner.apiKey });
    const missionId = missions.body.data[0]?.id ?? "";
    expectProblem(await submitPhotos(api, zoomer.token, missionId, [{ bytes: await shot(camera, 0) }]), 409, "take_the_task");
    expectProblem(await api.request("POST", `/api/v1/field/assignments/${front.id}/photo`, { token: zoomer.token }), 409, "assignment_not_reserved");

    expect((await take(zoomer.token, front.id)).body.status).toBe("reserved");
    expect((await take(zoomer.token, overview.id)).status).toBe(200);
    const other = await createZoomer(api);
    expectProblem(await api.request("POST", `/api/v1/field/assignments/${front.id}/take`, { token: other.token }), 409, "assignment_not_available");
    expect((await tasksNear(other.token, camera)).map((t) => t.id)).not.toContain(front.id);

    // Facing away: rejected on the angle, with an instruction, and a retake is opened.
    expect((await submitTask(zoomer.token, front.id, await shot(camera, 180))).status).toBe(202);
    const failed = await verified(zoomer.token, front.id);
    expect(failed.status).toBe("failed");
    expect(failed.verification?.status).toBe("rejected");
    expect(failed.verification?.ai_checks.angle_match).toMatchObject({ status: "failed", passed: false });
    expect(failed.verification?.ai_checks.location_match).toMatchObject({ status: "passed", passed: true });
    expect(failed.verification?.ai_checks.obstruction).toMatchObject({ status: "not_evaluated", passed: false });
    expect(failed.verification?.instructions.join(" ")).toMatch(/180°/);

    expect((await submitTask(zoomer.token, overview.id, await shot(camera, 90))).status).toBe(202);
    const overviewDone = await verified(zoomer.token, overview.id);
    expect(overviewDone.status).toBe("verified");
    expect(overviewDone.verification?.ai_checks.angle_match?.status).toBe("not_evaluated");
    expect(overviewDone.verification?.ai_checks.time_of_day).toMatchObject({ status: "passed", passed: true });

    const retake = (await tasksNear(zoomer.token, camera)).find((t) => t.angle === "front" && t.attempt === 1);
    if (!retake) throw new Error("no retake opened");
    expect(retake.instructions.join(" ")).toMatch(/180°/);
    expect(retake.instruction_codes.map((c) => c.code)).toContain("angle_match.face");
    expect(receiver.of("photos.delivered")).toHaveLength(0);

    await take(zoomer.token, retake.id);
    const good = await shot(camera, 2);
    expect((await submitTask(zoomer.token, retake.id, good)).status).toBe(202);
    expect((await verified(zoomer.token, retake.id)).status).toBe("verified");

    const [delivered] = await receiver.waitFor(1, "photos.delivered", 30_000);
    if (!delivered) throw new Error("not delivered");
    expect(verifies(delivered, secret.secret)).toBe(true);
    // And by the official Standard Webhooks library in its default mode, from the same secret as shown.
    const headers = Object.fromEntries(Object.entries(delivered.headers).map(([k, v]) => [k, String(v)]));
    expect(new Webhook(secret.secret).verify(delivered.raw.toString("utf8"), headers)).toMatchObject({ event: "photos.delivered" });
    expect(() => new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(delivered.raw.toString("utf8"), headers)).toThrow();
    const data = delivered.json.data as { order_id: string; mission_id: string; photos: Record<string, unknown>[] };
    expect(data).toMatchObject({ order_id: order.id, mission_id: missionId });
    expect(data.photos).toHaveLength(2);
    const frontPhoto = data.photos.find((p) => p.angle === "front") as {
      photo_id: string;
      url: string;
      thumbnail: string;
      metadata: { captured_at: string; gps: { lat: number; lng: number }; weather: unknown; sha256: string };
      verification: { status: string; ai_checks: Record<string, { score: number; passed: boolean }> };
    };
    expect(frontPhoto.photo_id).toMatch(/^img_/);
    expect(frontPhoto.url.startsWith(`${service.url}/cdn/images/${frontPhoto.photo_id}/original?`)).toBe(true);
    expect(frontPhoto.thumbnail.startsWith(`${service.url}/cdn/images/${frontPhoto.photo_id}/thumbnail?`)).toBe(true);
    expect(frontPhoto.metadata.gps.lat).toBeCloseTo(camera.lat, 4);
    expect(frontPhoto.metadata.weather).toEqual({ condition: "partly_cloudy", temp_c: 21.5 });
    expect(frontPhoto.verification.status).toBe("approved");
    expect(frontPhoto.verification.ai_checks.location_match).toMatchObject({ passed: true, score: expect.any(Number) });
    expect(frontPhoto.verification.ai_checks.angle_match).toMatchObject({ passed: true });
    // The original, byte for byte.
    const original = Buffer.from(await (await fetch(frontPhoto.url)).arrayBuffer());
    expect(createHash("sha256").update(original).digest("hex")).toBe(createHash("sha256").update(good).digest("hex"));
    expect(frontPhoto.metadata.sha256).toBe(createHash("sha256").update(good).digest("hex"));

    const final = await until(
      () => api.request<Order>("GET", `${ORDERS}/orders/${order.id}`, { token: partner.apiKey }),
      (r) => r.body.status === "fulfilled",
    );
    expect(final.body.missions).toMatchObject({ total: 1, completed: 1 });
    expect(final.body.amount_refunded_cents).toBe(0);
    const photos = await api.request<{ data: { photo_id: string }[] }>("GET", `${ORDERS}/orders/${order.id}/photos`, { token: partner.apiKey });
    expect(photos.body.data.map((p) => p.photo_id).sort()).toEqual(data.photos.map((p) => String(p.photo_id)).sort());
    const work = await api.request<{ data: { angle: string; attempt: number; status: string }[] }>("GET", `${ORDERS}/orders/${order.id}/assignments`, {
      token: partner.apiKey,
    });
    expect(work.body.data.map((a) => `${a.angle}#${a.attempt}:${a.status}`).sort()).toEqual(["front#0:failed", "front#1:verified", "overview#0:verified"]);
    const events = (await receiver.waitFor(1, "order.fulfilled")).map((r) => r.json.data);
    expect(events[0]).toMatchObject({ order_id: order.id, locations_delivered: 1, locations_failed: 0 });

    // The partner sends the front photo back: a task with their reason, free, then delivered again.
    const sentBack = await api.request<{ assignment_id: string }>("POST", `${ORDERS}/orders/${order.id}/photos/${frontPhoto.photo_id}/retake`, {
      token: partner.apiKey,
      body: { reason: "A van hides the door." },
    });
    expect(sentBack.status, sentBack.text).toBe(202);
    expectProblem(
      await api.request("POST", `${ORDERS}/orders/${order.id}/photos/${frontPhoto.photo_id}/retake`, { token: partner.apiKey, body: { reason: "again" } }),
      409,
      "retake_already_requested",
    );
    expect((await api.request<Order>("GET", `${ORDERS}/orders/${order.id}`, { token: partner.apiKey })).body.status).toBe("in_progress");
    const asked = (await tasksNear(zoomer.token, camera)).find((t) => t.id === sentBack.body.assignment_id);
    expect(asked?.instructions).toEqual(["The partner asked for this photo again: A van hides the door."]);
    // The prefix as a code with the partner's words as its figure, for the field page and the dashboard alike.
    const coded = [{ code: "retake.partner_asked", params: { reason: "A van hides the door." } }];
    expect(asked?.instruction_codes).toEqual(coded);
    // Both retakes' webhooks carry their instructions as codes, for the integrator's own language.
    const retakes = (await receiver.waitFor(2, "order.assignment.retake")).map(
      (r) => r.json.data as { requested_by?: string; instruction_codes?: { code: string }[] },
    );
    expect(retakes.find((r) => r.requested_by === undefined)?.instruction_codes?.length).toBeGreaterThan(0);
    expect(retakes.find((r) => r.requested_by === "partner")?.instruction_codes).toEqual(coded);
    const listed = await api.request<{ data: { id: string; instruction_codes: unknown }[] }>("GET", `${ORDERS}/orders/${order.id}/assignments`, {
      token: partner.apiKey,
    });
    expect(listed.body.data.find((a) => a.id === sentBack.body.assignment_id)?.instruction_codes).toEqual(coded);
    await take(zoomer.token, sentBack.body.assignment_id);
    await submitTask(zoomer.token, sentBack.body.assignment_id, await shot(camera, 358));
    const redelivered = await receiver.waitFor(2, "photos.delivered", 30_000);
    const second = redelivered[1]?.json.data as { photos: { angle: string; photo_id: string }[] };
    expect(second.photos.map((p) => p.angle)).toEqual(["front"]);
    expect(second.photos[0]?.photo_id).not.toBe(frontPhoto.photo_id);
    const again = await until(
      () => api.request<Order>("GET", `${ORDERS}/orders/${order.id}`, { token: partner.apiKey }),
      (r) => r.body.status === "fulfilled",
    );
    expect(again.body.amount_charged_cents).toBe(final.body.amount_charged_cents);
  }, 120_000);

  it("gives a location up after 3 failed retakes, refunds it, and ends the order partially fulfilled", async () => {
    const partner = await orderPartner(api);
    const target = noonPlace(1);
    const order = await createOrder(api, partner.apiKey, {
      requirements: { angles: ["front"] },
      locations: [
        { location_id: "loc_hard", name: "Hard", coordinates: target },
        { location_id: "loc_easy", name: "Easy", coordinates: { lat: target.lat + 0.01, lng: target.lng } },
      ],
    });
    await confirm(api, partner.apiKey, order.id);
    const zoomer = await createZoomer(api);
    const camera = southOf(target);
    for (let attempt = 0; attempt <= 3; attempt++) {
      const task = (await tasksNear(zoomer.token, camera)).find((t) => t.attempt === attempt && t.status !== "failed" && Math.abs(t.distance_m - 30) < 2);
      if (!task) throw new Error(`no task for attempt ${attempt}`);
      await take(zoomer.token, task.id);
      expect((await submitTask(zoomer.token, task.id, await shot(camera, 180))).status).toBe(202);
      // The last retake's failure gives the location up.
      expect((await verified(zoomer.token, task.id)).status).toBe(attempt === 3 ? "given_up" : "failed");
    }
    const easyCamera = southOf({ lat: target.lat + 0.01, lng: target.lng });
    const easy = (await tasksNear(zoomer.token, easyCamera)).find((t) => Math.abs(t.distance_m - 30) < 2);
    if (!easy) throw new Error("no easy task");
    await take(zoomer.token, easy.id);
    await submitTask(zoomer.token, easy.id, await shot(easyCamera, 0));
    const final = await until(
      () => api.request<Order>("GET", `${ORDERS}/orders/${order.id}`, { token: partner.apiKey }),
      (r) => r.body.status === "partially_fulfilled",
    );
    // One location of two, 1 photo at 400: the failed one is refunded.
    expect(final.body).toMatchObject({ amount_charged_cents: 800, amount_refunded_cents: 400, missions: { total: 2, completed: 1, cancelled: 1 } });
    expect((await tasksNear(zoomer.token, camera)).filter((t) => Math.abs(t.distance_m - 30) < 2 && t.status === "open")).toEqual([]);
  }, 120_000);

  it("reads the brand on the photo with the local OCR analyser: the wrong shop is retaken, the right one delivered", { timeout: 240_000 }, async () => {
    const partner = await orderPartner(api);
    const target = noonPlace(3);
    const order = await createOrder(api, partner.apiKey, {
      category: "retail_compliance",
      requirements: { angles: ["overview"], time_of_day: "daylight", brand_match: "Gelateria dei Neri" },
      locations: [{ location_id: "loc_gelato", name: "Gelateria", coordinates: target }],
    });
    expect((await confirm(api, partner.apiKey, order.id)).body.status).toBe("in_progress");
    const zoomer = await createZoomer(api);
    const camera = southOf(target, 20);
    const [task] = await tasksNear(zoomer.token, camera);
    if (!task) throw new Error("no task");
    await take(zoomer.token, task.id);
    const wrongShop = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed: seed++, sign: "Farmacia Comunale" });
    expect((await submitTask(zoomer.token, task.id, wrongShop)).status).toBe(202);
    // OCR reads the photo several ways before it gives up: slow on a loaded machine.
    const failed = await verified(zoomer.token, task.id, 180_000);
    expect(failed.status).toBe("failed");
    expect(failed.verification?.ai_checks.brand_match).toMatchObject({ status: "failed", passed: false });
    expect(failed.verification?.ai_checks.location_match).toMatchObject({ status: "passed" });
    // What the analyser cannot judge stays not evaluated, never passed.
    expect(failed.verification?.ai_checks.obstruction).toMatchObject({ status: "not_evaluated", passed: false });
    expect(failed.verification?.instructions.join(" ")).toMatch(/Gelateria dei Neri sign or logo is in the frame/);

    const retake = (await tasksNear(zoomer.token, camera)).find((t) => t.attempt === 1);
    if (!retake) throw new Error("no retake opened");
    await take(zoomer.token, retake.id);
    const rightShop = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed: seed++, sign: "Gelateria dei Neri" });
    expect((await submitTask(zoomer.token, retake.id, rightShop)).status).toBe(202);
    expect((await verified(zoomer.token, retake.id, 180_000)).status).toBe("verified");

    const photos = await until(
      () =>
        api.request<{ data: { angle: string; verification: { ai_checks: Record<string, { status: string; score: number; value: unknown }> } }[] }>(
          "GET",
          `${ORDERS}/orders/${order.id}/photos`,
          { token: partner.apiKey },
        ),
      (res) => res.body.data.length === 1,
    );
    expect(photos.body.data[0]?.verification.ai_checks.brand_match).toMatchObject({ status: "passed", value: "GELATERIADEINERI" });
    expect(photos.body.data[0]?.verification.ai_checks.brand_match?.score).toBeGreaterThanOrEqual(0.8);
  });
});
