// Order-interface helpers for API tests: an organisation with an API key, a create-order body, and
// shortcuts for the order routes.
import type { Plan } from "@/lib/db/schema";
import type { CreateOrderInput, Order } from "@/lib/schemas/order";
import type { ApiResponse, TestClient } from "./client";

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

export function confirm(api: TestClient, key: string, id: string, body: Record<string, unknown> = { payment_method: "card" }, headers: Record<string, string> = {}): Promise<ApiResponse<Order>> {
  return api.request<Order>("POST", `${ORDERS}/orders/${id}/confirm`, { token: key, body, headers });
}
