// Order-interface helpers for API tests: an organisation with an API key, a create-order body, and
// shortcuts for the order routes.
import type { Plan } from "@/lib/db/schema";
import { makePhoto } from "@/lib/demo/make-photo";
import type { CreateOrderInput, Order } from "@/lib/schemas/order";
import type { ApiResponse, TestClient } from "./client";
import { createZoomer } from "./photos";

export const ORDERS = "/api/orders/v1";

export interface OrderPartner {
  orgId: string;
  apiKey: string;
  keyId: string;
}

export async function orderPartner(api: TestClient, { plan, access }: { plan?: Plan; access?: "read_write" | "read_only" } = {}): Promise<OrderPartner> {
  const orgId = await api.createOrg("Order org");
  if (plan) {
    const res = await api.admin("PATCH", `/orgs/${orgId}`, { plan });
    if (res.status !== 200) throw new Error(`plan: ${res.status} ${res.text}`);
  }
  const key = await api.admin<{ id: string; api_key: string }>("POST", `/orgs/${orgId}/api-keys`, { name: "orders", ...(access ? { access } : {}) });
  if (key.status !== 201) throw new Error(`api key: ${key.status} ${key.text}`);
  return { orgId, apiKey: key.body.api_key, keyId: key.body.id };
}

/** Florence: the Duomo, the Uffizi, Ponte Vecchio — 2 angles each unless said otherwise. */
export function orderBody(fields: Partial<CreateOrderInput> = {}): CreateOrderInput {
  return {
    client_reference: "test-order",
    category: "cultural_exterior",
    description: "Façades of Florence",
    requirements: { angles: ["front", "entrance"], time_of_day: "daylight" },
    locations: [
      { location_id: "loc_duomo", name: "Duomo", coordinates: { lat: 43.7731, lng: 11.256 } },
      { location_id: "loc_uffizi", name: "Uffizi", coordinates: { lat: 43.7678, lng: 11.2553 } },
      { name: "Ponte Vecchio", coordinates: { lat: 43.768, lng: 11.2531 } },
    ],
    ...fields,
  };
}

export function manyLocations(n: number) {
  return Array.from({ length: n }, (_, i) => ({ name: `Place ${i}`, coordinates: { lat: 43.7 + (i % 100) * 0.001, lng: 11.2 + Math.floor(i / 100) * 0.001 } }));
}

export async function createOrder(api: TestClient, key: string, fields: Partial<CreateOrderInput> = {}, headers: Record<string, string> = {}): Promise<Order> {
  const res = await api.request<Order>("POST", `${ORDERS}/orders`, { token: key, body: orderBody(fields), headers });
  if (res.status !== 201) throw new Error(`create order: ${res.status} ${res.text}`);
  return res.body;
}

export function confirm(
  api: TestClient,
  key: string,
  id: string,
  body: Record<string, unknown> = { payment_method: "card" },
  headers: Record<string, string> = {},
): Promise<ApiResponse<Order>> {
  return api.request<Order>("POST", `${ORDERS}/orders/${id}/confirm`, { token: key, body, headers });
}

/**
 * A new zoomer takes the open task near `target` and sends the photo of `seed` from 30 m south of
 * it, facing north (the target), through the task's multipart route; the bytes it sent.
 */
export async function sendTaskPhotoFromSouth(api: TestClient, target: { lat: number; lng: number }, seed: number): Promise<Buffer> {
  const camera = { lat: target.lat - 30 / 111_320, lng: target.lng };
  const bytes = await makePhoto({ ...camera, accuracyM: 5, directionDeg: 0, capturedAt: new Date(), seed });
  const zoomer = await createZoomer(api);
  const list = await api.request<{ data: { id: string }[] }>("GET", `/api/v1/field/assignments?lat=${camera.lat}&lng=${camera.lng}&radius_km=1`, {
    token: zoomer.token,
  });
  const taskId = list.body.data[0]?.id ?? "";
  await api.request("POST", `/api/v1/field/assignments/${taskId}/take`, { token: zoomer.token });
  const form = new FormData();
  form.append("photos", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "front.jpg");
  const sent = await fetch(`${api.service.url}/api/v1/field/assignments/${taskId}/photo`, {
    method: "POST",
    headers: { authorization: `Bearer ${zoomer.token}` },
    body: form,
  });
  if (sent.status !== 202) throw new Error(`the task's photo was not taken in: ${sent.status} ${await sent.text()}`);
  return bytes;
}
