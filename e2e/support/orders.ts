// The order interface as an organisation's own systems and the field use it, for the order specs:
// an API key made through the operator API, an order created and paid with it, and a zoomer who
// takes a task near the place and sends a photo until the order has it delivered.
import { expect, type APIRequestContext } from "@playwright/test";
import { makePhoto } from "@/lib/demo/make-photo";
import { bearer } from "./api";
import type { Operator } from "./operator";
import { unique } from "./operator";

export const ORDERS = "/api/orders/v1";

export async function json<T>(res: Awaited<ReturnType<APIRequestContext["get"]>>, status: number): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

/** A read-write order-interface key of the organisation, from the operator API. */
export async function orderApiKey(operator: Operator, orgId: string): Promise<string> {
  const { api_key } = await json<{ api_key: string }>(
    await operator.request.post(`/api/admin/v1/orgs/${orgId}/api-keys`, { headers: bearer(operator.adminToken), data: { name: unique("e2e orders") } }),
    201,
  );
  return api_key;
}

/** The demo partner organisation's id (the demo user administers it). */
export async function demoOrgId(operator: Operator): Promise<string> {
  const { data } = await json<{ data: { id: string; name: string }[] }>(
    await operator.request.get(`/api/admin/v1/orgs?q=${encodeURIComponent("Demo Partner")}`, { headers: bearer(operator.adminToken) }),
    200,
  );
  const org = data.find((o) => o.name.startsWith("Demo Partner"));
  if (!org) throw new Error(`no demo organisation among ${data.map((o) => o.name).join(", ")}`);
  return org.id;
}

/** An organisation with an order-interface API key, made by the operator. */
export async function fieldOrderKey(operator: Operator): Promise<string> {
  const org = await operator.createOrg("E2E Field orders");
  const res = await operator.request.post(`/api/admin/v1/orgs/${org.id}/api-keys`, { headers: bearer(operator.adminToken), data: { name: "orders" } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { api_key: string }).api_key;
}

/**
 * A one-off order for one place and one angle, created and confirmed (paid with the card on file)
 * through the order API. No time_of_day: the test must pass at any hour.
 */
export async function confirmedFieldOrder(
  request: APIRequestContext,
  apiKey: string,
  place: { name: string; lat: number; lng: number },
  timeOfDay?: "daylight",
) {
  const body = {
    client_reference: unique("e2e-field"),
    category: "cultural_exterior",
    description: "Façades near the demo location",
    requirements: { angles: ["front"], ...(timeOfDay ? { time_of_day: timeOfDay } : {}) },
    locations: [{ name: place.name, coordinates: { lat: place.lat, lng: place.lng } }],
  };
  const created = await request.post(`${ORDERS}/orders`, { headers: { ...bearer(apiKey), "idempotency-key": crypto.randomUUID() }, data: body });
  expect(created.status(), await created.text()).toBe(201);
  const order = (await created.json()) as { id: string };
  const confirmed = await request.post(`${ORDERS}/orders/${order.id}/confirm`, {
    headers: { ...bearer(apiKey), "idempotency-key": crypto.randomUUID() },
    data: { payment_method: "card" },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  expect(((await confirmed.json()) as { status: string }).status).toBe("in_progress");
  return order;
}

interface Task {
  id: string;
  location: { name: string };
}

/**
 * A paid one-off order of two places (front photos), and a zoomer 30 m south of the first who
 * sends a photo facing north; resolves once the photo is verified and delivered.
 */
export async function orderWithDeliveredPhoto(request: APIRequestContext, operator: Operator, key: string) {
  const target = { lat: 44.4939 + Math.random() * 0.01, lng: 11.3426 + Math.random() * 0.01 };
  const name = unique("Fountain");
  const reference = unique("e2e-review");
  const order = await json<{ id: string }>(
    await request.post(`${ORDERS}/orders`, {
      headers: { ...bearer(key), "idempotency-key": unique("create") },
      data: {
        client_reference: reference,
        category: "cultural_exterior",
        requirements: { angles: ["front"] },
        locations: [
          { name, coordinates: target },
          { name: `${name} (annex)`, coordinates: { lat: target.lat + 0.004, lng: target.lng + 0.004 } },
        ],
      },
    }),
    201,
  );
  const confirmed = await json<{ status: string }>(
    await request.post(`${ORDERS}/orders/${order.id}/confirm`, {
      headers: { ...bearer(key), "idempotency-key": unique("confirm") },
      data: { payment_method: "card" },
    }),
    200,
  );
  expect(confirmed.status).toBe("in_progress");

  const zoomer = await operator.zoomer();
  const camera = { lat: target.lat - 30 / 111_320, lng: target.lng };
  const { data: tasks } = await json<{ data: Task[] }>(
    await request.get(`/api/v1/field/assignments?lat=${camera.lat}&lng=${camera.lng}&radius_km=1`, { headers: bearer(zoomer.token) }),
    200,
  );
  const task = tasks.find((t) => t.location.name === name);
  if (!task) throw new Error(`no task for ${name} among ${tasks.map((t) => t.location.name).join(", ")}`);
  await json(await request.post(`/api/v1/field/assignments/${task.id}/take`, { headers: bearer(zoomer.token) }), 200);
  const photo = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed: 7100 + Math.floor(Math.random() * 1000) });
  const form = new FormData();
  form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "IMG_7100.jpg");
  await json(await request.post(`/api/v1/field/assignments/${task.id}/photo`, { headers: bearer(zoomer.token), multipart: form }), 202);

  let photoId = "";
  await expect
    .poll(
      async () => {
        const { data } = await json<{ data: { photo_id: string }[] }>(await request.get(`${ORDERS}/orders/${order.id}/photos`, { headers: bearer(key) }), 200);
        photoId = data[0]?.photo_id ?? "";
        return data.length;
      },
      { timeout: 120_000, intervals: [500, 1000, 2000], message: "the photo is verified and delivered" },
    )
    .toBe(1);
  return { orderId: order.id, photoId, name, reference, zoomer };
}
