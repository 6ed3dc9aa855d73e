// A confirmed order whose locations are open field tasks, set up through the public interfaces as
// a partner, the operator and zoomers would (lib/service/http/tests/orders-fulfilment.api.test.ts
// is the same flow as a test): for benchmarks of the fulfilment path, which then take the tasks
// and upload photos to them. Also the photos: one made at each task's place.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { makePhoto } from "@/lib/demo/make-photo";
import type { DeliveryReceiver } from "./delivery-receiver";
import { requestJson } from "./http";
import { seedOrderPartner, seedZoomer, type SeededZoomer } from "./seed";
import type { RunningApi } from "./targets";

export const ORDERS_API = "/api/orders/v1";

/** An open assignment of the order: one location, one mission. */
export interface FieldTask {
  id: string;
  missionId: string;
  locationId: string;
  lat: number;
  lng: number;
}

export interface SeededOrder {
  orderId: string;
  /** The partner's order-interface key. */
  apiKey: string;
  /** Sorted by location id, i.e. in the order of the locations. */
  tasks: FieldTask[];
  zoomers: SeededZoomer[];
}

export const locationIdOf = (i: number) => `loc_${String(i).padStart(3, "0")}`;

// Florence: a grid of points 250 m apart north–south, 300 m east–west (each its own mission area).
const origin = { lat: 43.76, lng: 11.24 };
export const placeOf = (i: number) => ({
  lat: Math.round((origin.lat + (i % 8) * 0.00225) * 1e6) / 1e6,
  lng: Math.round((origin.lng + Math.floor(i / 8) * 0.0037) * 1e6) / 1e6,
});

const status = z.object({ status: z.string() });
const assignmentPage = z.object({ data: z.array(z.object({ id: z.string(), mission_id: z.string(), location_id: z.string(), status: z.string() })) });

/**
 * An Enterprise partner with its order-delivery secret (set on `receiver` before anything is sent
 * to it), one order of `count` locations × the "overview" angle (it faces no single point, so the
 * camera's direction is not judged; no time_of_day, so any hour passes) delivered to the receiver,
 * confirmed; its open tasks, and `zoomerCount` zoomers with their tokens.
 */
export async function seedConfirmedOrder(api: RunningApi, receiver: DeliveryReceiver, count: number, zoomerCount: number): Promise<SeededOrder> {
  const partner = await seedOrderPartner(api);
  const asPartner = <T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown, expect = 200) =>
    requestJson(`${api.url}${ORDERS_API}${path}`, method, schema, { bearer: partner.apiKey, body, expect });
  receiver.secret = (await asPartner("POST", "/delivery-secret", z.object({ secret: z.string() }), undefined, 201)).secret;
  const locations = Array.from({ length: count }, (_, i) => ({ location_id: locationIdOf(i), name: `Benchmark place ${i}`, coordinates: placeOf(i) }));
  const order = await asPartner(
    "POST",
    "/orders",
    z.object({ id: z.string() }),
    {
      client_reference: `bench-delivery-${randomUUID().slice(0, 8)}`,
      category: "cultural_exterior",
      description: "Order-delivery latency benchmark",
      requirements: { angles: ["overview"] },
      locations,
      delivery: { webhook_url: `${receiver.url}/hooks/delivered` },
    },
    201,
  );
  const confirmed = await asPartner("POST", `/orders/${order.id}/confirm`, status, { payment_method: "card" });
  if (confirmed.status !== "in_progress") throw new Error(`order ${order.id} is ${confirmed.status} after confirm, not in_progress`);
  const where = new Map(locations.map((l) => [l.location_id, l.coordinates]));
  const tasks: FieldTask[] = [];
  for (let page = 1; tasks.length < count; page++) {
    const list = await asPartner("GET", `/orders/${order.id}/assignments?per_page=100&page=${page}`, assignmentPage);
    if (list.data.length === 0) break;
    for (const a of list.data) {
      const at = where.get(a.location_id);
      if (!at) throw new Error(`assignment ${a.id}: unknown location ${a.location_id}`);
      if (a.status === "open") tasks.push({ id: a.id, missionId: a.mission_id, locationId: a.location_id, ...at });
    }
  }
  if (tasks.length !== count) throw new Error(`order ${order.id}: ${tasks.length} open tasks for ${count} locations`);
  tasks.sort((a, b) => a.locationId.localeCompare(b.locationId));
  const zoomers: SeededZoomer[] = [];
  for (let z = 0; z < zoomerCount; z++) zoomers.push(await seedZoomer(api, `Benchmark zoomer ${z}`));
  return { orderId: order.id, apiKey: partner.apiKey, tasks, zoomers };
}

/** The order's status, as its partner reads it. */
export async function readOrderStatus(api: RunningApi, order: SeededOrder): Promise<string> {
  return (await requestJson(`${api.url}${ORDERS_API}/orders/${order.orderId}`, "GET", status, { bearer: order.apiKey })).status;
}

/** The zoomer reserves the task, as the field app's "take" does. */
export async function takeTask(api: RunningApi, zoomer: SeededZoomer, task: FieldTask): Promise<void> {
  const taken = await requestJson(`${api.url}/api/v1/field/assignments/${task.id}/take`, "POST", status, { bearer: zoomer.token });
  if (taken.status !== "reserved") throw new Error(`task ${task.id} is ${taken.status} after take`);
}

/** The zoomer's photo upload for a reserved task (multipart, as the field app sends it); the answer as it came. */
export async function uploadTaskPhoto(api: RunningApi, zoomer: SeededZoomer, task: FieldTask, photo: Buffer): Promise<{ status: number; text: string }> {
  const form = new FormData();
  form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), `${task.locationId}.jpg`);
  const response = await fetch(`${api.url}/api/v1/field/assignments/${task.id}/photo`, {
    method: "POST",
    headers: { authorization: `Bearer ${zoomer.token}` },
    body: form,
  });
  return { status: response.status, text: await response.text() };
}

/**
 * One photo per location (1600×1200, made at it, capture time now), keyed by location id: made
 * once per run and reused for a second database — unless they are older than QA accepts (the
 * capture time may precede the mission by 15 min at most), then made again.
 */
export interface TaskPhotos {
  madeAt: number;
  byLocation: Map<string, Buffer>;
}

const PHOTOS_FRESH_MS = 10 * 60_000;

/** The photos of the first `count` locations: `cached` while still fresh, else made now. */
export async function makeTaskPhotos(count: number, cached: TaskPhotos | undefined): Promise<TaskPhotos> {
  if (cached && cached.byLocation.size >= count && Date.now() - cached.madeAt < PHOTOS_FRESH_MS) return cached;
  const madeAt = Date.now();
  const byLocation = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const at = placeOf(i);
    byLocation.set(
      locationIdOf(i),
      await makePhoto({
        ...at,
        accuracyM: 5,
        directionDeg: (i * 47) % 360,
        capturedAt: new Date(madeAt),
        width: 1600,
        height: 1200,
        seed: 7000 + i * 13,
        utcOffsetMinutes: 60,
      }),
    );
  }
  return { madeAt, byLocation };
}
