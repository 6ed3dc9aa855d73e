// The order interface over HTTP: auth (API keys, read-only keys, revocation, OAuth scopes), every
// validation pointer, quotes, create/read/list, confirm with the test cards (success, decline,
// authentication), quotas and plan limits, cancel refunds, tenancy, the operator side.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order, Quote } from "@/lib/schemas/order";
import { expectBearerChallenge, expectProblem, expectRateLimitHeaders, pointersOf } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, manyLocations, orderBody, orderPartner, type OrderPartner } from "./orders-client";
import { awayFromWindowEnd } from "./rate-windows";

let service: TestService;
let api: TestClient;
let partner: OrderPartner;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
  partner = await orderPartner(api, { plan: "enterprise" });
});
afterAll(() => service.close());

describe("authentication", () => {
  it("refuses a request without credentials with 401 and a Bearer challenge", async () => {
    const res = await api.request("GET", `${ORDERS}/orders`);
    expectProblem(res, 401, "unauthorized");
    expectBearerChallenge(res);
  });

  it("refuses an unknown API key", async () => {
    const res = await api.request("GET", `${ORDERS}/orders`, { token: "pm_live_not-a-real-key-at-all-0000000000000" });
    expectProblem(res, 401, "invalid_token");
    expectBearerChallenge(res, "invalid_token");
  });

  it("stops a revoked key at once", async () => {
    const own = await orderPartner(api);
    expect((await api.request("GET", `${ORDERS}/orders`, { token: own.apiKey })).status).toBe(200);
    const admin = await api.createUser(own.orgId, { email: `admin-${Date.now()}@example.com`, password: "correct horse battery", role: "admin" });
    const { access_token } = await api.dashboardToken(admin.id, own.orgId);
    const revoked = await api.request("DELETE", `/api/v1/api-keys/${own.keyId}`, { token: access_token });
    expect(revoked.status, revoked.text).toBe(204);
    expectProblem(await api.request("GET", `${ORDERS}/orders`, { token: own.apiKey }), 401, "invalid_token");
  });

  it("lets a read-only key read but not write", async () => {
    const own = await orderPartner(api, { access: "read_only" });
    expect((await api.request("GET", `${ORDERS}/orders`, { token: own.apiKey })).status).toBe(200);
    expectProblem(await api.request("POST", `${ORDERS}/orders/quote`, { token: own.apiKey, body: orderBody() }), 403, "insufficient_scope");
    expectProblem(await api.request("POST", `${ORDERS}/orders`, { token: own.apiKey, body: orderBody() }), 403, "insufficient_scope");
  });

  it("accepts OAuth tokens with the order scopes", async () => {
    const orgId = await api.createOrg();
    const client = await api.createClient(orgId, ["orders:read", "orders:write", "missions:read"]);
    const readOnly = await api.token(client, "orders:read");
    const missionsOnly = await api.token(client, "missions:read");
    const full = await api.token(client);
    expect((await api.request("GET", `${ORDERS}/orders`, { token: readOnly })).status).toBe(200);
    expectProblem(await api.request("POST", `${ORDERS}/orders`, { token: readOnly, body: orderBody() }), 403, "insufficient_scope");
    expectProblem(await api.request("GET", `${ORDERS}/orders`, { token: missionsOnly }), 403, "insufficient_scope");
    expect((await api.request("POST", `${ORDERS}/orders`, { token: full, body: orderBody() })).status).toBe(201);
  });
});

describe("validation", () => {
  const cases: [string, (body: ReturnType<typeof orderBody>) => unknown, string][] = [
    [
      "latitude out of range",
      (b) => ({ ...b, locations: [b.locations[0], b.locations[1], b.locations[2], { name: "X", coordinates: { lat: 91, lng: 0 } }] }),
      "/locations/3/coordinates/lat",
    ],
    ["longitude out of range", (b) => ({ ...b, locations: [{ name: "X", coordinates: { lat: 0, lng: -181 } }] }), "/locations/0/coordinates/lng"],
    ["unknown category", (b) => ({ ...b, category: "weddings" }), "/category"],
    ["unknown angle", (b) => ({ ...b, requirements: { angles: ["front", "aerial"] } }), "/requirements/angles/1"],
    ["angle twice", (b) => ({ ...b, requirements: { angles: ["front", "front"] } }), "/requirements/angles/1"],
    ["no angles anywhere", (b) => ({ ...b, requirements: {}, locations: [b.locations[0]] }), "/locations/0/requirements/angles"],
    ["unknown time of day", (b) => ({ ...b, requirements: { angles: ["front"], time_of_day: "night" } }), "/requirements/time_of_day"],
    ["duplicate loc_ id", (b) => ({ ...b, locations: [b.locations[0], { ...b.locations[1], location_id: "loc_duomo" }] }), "/locations/1/location_id"],
    ["bad loc_ id", (b) => ({ ...b, locations: [{ ...b.locations[0], location_id: "duomo" }] }), "/locations/0/location_id"],
    ["unknown member", (b) => ({ ...b, price: 0 }), "/price"],
    ["unknown member in a location", (b) => ({ ...b, locations: [{ ...b.locations[0], status: "done" }] }), "/locations/0/status"],
    ["no locations", (b) => ({ ...b, locations: [] }), "/locations"],
    ["501 locations", (b) => ({ ...b, locations: manyLocations(501) }), "/locations"],
    ["time window malformed", (b) => ({ ...b, recurring: { enabled: true, frequency: "daily", time_window: "18:00-25:00" } }), "/recurring/time_window"],
    ["time window empty", (b) => ({ ...b, recurring: { enabled: true, frequency: "daily", time_window: "18:00-18:00" } }), "/recurring/time_window"],
    ["day of week 8", (b) => ({ ...b, recurring: { enabled: true, frequency: "weekly", day_of_week: 8 } }), "/recurring/day_of_week"],
    ["day of week on a daily order", (b) => ({ ...b, recurring: { enabled: true, frequency: "daily", day_of_week: 5 } }), "/recurring/day_of_week"],
    ["deliver_before not a day", (b) => ({ ...b, recurring: { enabled: true, frequency: "monthly", deliver_before: "32nd" } }), "/recurring/deliver_before"],
    ["unknown frequency", (b) => ({ ...b, recurring: { enabled: true, frequency: "hourly" } }), "/recurring/frequency"],
    ["unknown season", (b) => ({ ...b, recurring: { enabled: true, frequency: "weekly", season: "monsoon" } }), "/recurring/season"],
    ["event nights without dates", (b) => ({ ...b, recurring: { enabled: true, event_nights_only: true } }), "/recurring/event_dates"],
    [
      "event date not a date",
      (b) => ({ ...b, recurring: { enabled: true, event_nights_only: true, event_dates: ["2027-02-30"] } }),
      "/recurring/event_dates/0",
    ],
    ["delivery URL not a URL", (b) => ({ ...b, delivery: { webhook_url: "not a url" } }), "/delivery/webhook_url"],
  ];

  it.each(cases)("%s → 422 at the member", async (_name, mutate, pointer) => {
    const res = await api.request("POST", `${ORDERS}/orders`, { token: partner.apiKey, body: mutate(orderBody()) });
    expect(res.status, res.text).toBe(422);
    const body = expectProblem(res, 422, (res.body as { code: string }).code);
    expect(pointersOf(body)).toContain(pointer);
  });

  it("accepts a window past midnight and says so in the schedule", async () => {
    // No time of day: a daylight order between 22:00 and 02:00 in Florence has no cycle at all (refused).
    const order = await createOrder(api, partner.apiKey, {
      requirements: { angles: ["front", "entrance"] },
      recurring: { enabled: true, frequency: "daily", time_window: "22:00-02:00" },
    });
    const schedule = await api.request<{ cycles: { windows: { crosses_midnight: boolean; local_window: string }[] }[] }>(
      "GET",
      `${ORDERS}/orders/${order.id}/schedule?count=2`,
      { token: partner.apiKey },
    );
    expect(schedule.status, schedule.text).toBe(200);
    expect(schedule.body.cycles[0]?.windows[0]).toMatchObject({ crosses_midnight: true, local_window: "22:00-02:00" });
  });

  it("refuses a private delivery URL when private targets are not allowed", async () => {
    const strict = await startTestService({ webhooks: { timeoutMs: 1000, allowPrivateTargets: false, retryScale: 1, secretGraceSeconds: 60 } });
    try {
      const strictApi = new TestClient(strict);
      const own = await orderPartner(strictApi);
      const res = await strictApi.request("POST", `${ORDERS}/orders`, {
        token: own.apiKey,
        body: orderBody({ delivery: { webhook_url: "http://169.254.169.254/latest" } }),
      });
      expect(pointersOf(expectProblem(res, 422, "unsafe_webhook_url"))).toEqual(["/delivery/webhook_url"]);
    } finally {
      await strict.close();
    }
    // A second service starts inside the test: on a loaded machine PGlite alone can take 20 s.
  }, 120_000);
});

describe("quotes and orders", () => {
  it("quotes line items per location at the price list, with the plan's quota", async () => {
    const res = await api.request<Quote>("POST", `${ORDERS}/orders/quote`, { token: partner.apiKey, body: orderBody() });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      currency: "EUR",
      plan: "enterprise",
      billing: "one_off",
      photos_per_cycle: 6,
      discount: null,
      subtotal_cents: 2400,
      total_cents: 2400,
    });
    expect(res.body.line_items).toHaveLength(3);
    expect(res.body.line_items[0]).toMatchObject({ location_id: "loc_duomo", quantity: 2, unit_amount_cents: 400, amount_cents: 800 });
    expect(res.body.quota).toEqual({ photos_per_month: null, used_this_month: 0, remaining_this_month: null });
    expect((await api.request("GET", `${ORDERS}/orders`, { token: partner.apiKey })).status).toBe(200);
  });

  it.each([
    ["weekly", { enabled: true, frequency: "weekly", day_of_week: 5 }, 15],
    ["monthly", { enabled: true, frequency: "monthly", deliver_before: "15th" }, 10],
    ["daily", { enabled: true, frequency: "daily" }, 0],
  ] as const)("discounts %s orders by %#", async (_name, recurring, percent) => {
    const res = await api.request<Quote>("POST", `${ORDERS}/orders/quote`, { token: partner.apiKey, body: orderBody({ recurring: { ...recurring } }) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.billing).toBe("per_cycle");
    expect(res.body.discount?.percent ?? 0).toBe(percent);
    expect(res.body.total_cents).toBe(2400 - Math.round((2400 * percent) / 100));
    expect(res.body.schedule).toEqual(expect.any(String));
  });

  it("prices time of day and analysis requirements", async () => {
    const res = await api.request<Quote>("POST", `${ORDERS}/orders/quote`, {
      token: partner.apiKey,
      body: orderBody({ requirements: { angles: ["front"], time_of_day: "evening", brand_match: "Acme" }, locations: orderBody().locations.slice(0, 1) }),
    });
    // 400 + 25 % evening + 150 brand match
    expect(res.body.line_items[0]?.unit_amount_cents).toBe(650);
  });

  it("creates an order with merged requirements, time zones and its quote", async () => {
    const res = await api.request<Order>("POST", `${ORDERS}/orders`, {
      token: partner.apiKey,
      body: orderBody({
        locations: [
          ...orderBody().locations,
          { name: "Sydney Opera House", coordinates: { lat: -33.8568, lng: 151.2153 }, requirements: { angles: ["overview"] } },
        ],
      }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("location")).toBe(`${service.url}${ORDERS}/orders/${res.body.id}`);
    expect(res.body.id).toMatch(/^ord_/);
    expect(res.body.status).toBe("pending_confirmation");
    expect(res.body.expires_at).toEqual(expect.any(String));
    expect(res.body.locations.map((l) => l.time_zone)).toEqual(["Europe/Rome", "Europe/Rome", "Europe/Rome", "Australia/Sydney"]);
    expect(res.body.locations[2]?.location_id).toMatch(/^loc_/);
    expect(res.body.locations[3]?.requirements).toEqual({ angles: ["overview"], time_of_day: "daylight" });
    expect(res.body.quote.photos_per_cycle).toBe(7);
    const got = await api.request<Order>("GET", `${ORDERS}/orders/${res.body.id}`, { token: partner.apiKey });
    expect(got.body).toEqual(res.body);
  });

  it("lists orders with filters and the list envelope", async () => {
    const own = await orderPartner(api);
    const a = await createOrder(api, own.apiKey, { client_reference: "ref-a" });
    await createOrder(api, own.apiKey, { client_reference: "ref-b" });
    const all = await api.request<{ data: Order[]; meta: { total: number } }>("GET", `${ORDERS}/orders?per_page=1`, { token: own.apiKey });
    expect(all.body.meta).toEqual({ total: 2, page: 1, per_page: 1 });
    const byRef = await api.request<{ data: Order[] }>("GET", `${ORDERS}/orders?client_reference=ref-a`, { token: own.apiKey });
    expect(byRef.body.data.map((o) => o.id)).toEqual([a.id]);
    const confirmed = await api.request<{ data: Order[] }>("GET", `${ORDERS}/orders?status=in_progress`, { token: own.apiKey });
    expect(confirmed.body.data).toEqual([]);
    const bad = await api.request("GET", `${ORDERS}/orders?status=shipped`, { token: own.apiKey });
    expect(pointersOf(expectProblem(bad, 422, "validation_failed"))).toEqual(["status"]);
  });

  it("answers another organisation's order with 404", async () => {
    const other = await orderPartner(api);
    const order = await createOrder(api, partner.apiKey);
    expectProblem(await api.request("GET", `${ORDERS}/orders/${order.id}`, { token: other.apiKey }), 404, "not_found");
    expectProblem(await confirm(api, other.apiKey, order.id), 404, "not_found");
    expectProblem(await api.request("GET", `${ORDERS}/orders/${order.id}/missions`, { token: other.apiKey }), 404, "not_found");
    expectProblem(await api.request("POST", `${ORDERS}/orders/${order.id}/cancel`, { token: other.apiKey }), 404, "not_found");
  });
});

describe("confirm, pay and dispatch", () => {
  it("an order's mission changes only with its order: PATCH and cancel on the mission interface are 409 mission_of_order, and nothing changes", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey, { client_reference: "order-mission-guard", locations: orderBody().locations.slice(0, 1) });
    expect((await confirm(api, own.apiKey, order.id)).status).toBe(200);
    const listed = await api.request<{ data: { id: string }[] }>("GET", `${ORDERS}/orders/${order.id}/missions`, { token: own.apiKey });
    const missionId = listed.body.data[0]?.id ?? "";
    const token = await api.token(await api.createClient(own.orgId, ["missions:read", "missions:write"]));
    const before = await api.request<{ required_images: number; title: string; status: string }>("GET", `/api/v1/missions/${missionId}`, { token });
    expect(before.body.status).toBe("active");

    const patched = expectProblem(
      await api.request("PATCH", `/api/v1/missions/${missionId}`, { token, body: { required_images: 1, title: "Cheaper" } }),
      409,
      "mission_of_order",
    );
    expect(patched.detail).toContain(`POST /api/orders/v1/orders/${order.id}/cancel`);
    expectProblem(await api.request("POST", `/api/v1/missions/${missionId}/cancel`, { token }), 409, "mission_of_order");

    const after = await api.request<{ required_images: number; title: string; status: string }>("GET", `/api/v1/missions/${missionId}`, { token });
    expect(after.body).toMatchObject({ required_images: before.body.required_images, title: before.body.title, status: "active" });
    // A mission of the partner's own is still theirs to change.
    const ownMission = await api.request<{ id: string }>("POST", "/api/v1/missions", {
      token,
      body: {
        title: "Own",
        bounds: (await api.request<{ bounds: unknown }>("GET", `/api/v1/missions/${missionId}`, { token })).body.bounds,
        required_images: 3,
      },
    });
    expect(ownMission.status).toBe(201);
    expect((await api.request("PATCH", `/api/v1/missions/${ownMission.body.id}`, { token, body: { required_images: 1 } })).status).toBe(200);
  });

  it("charges the card on file and dispatches one mis_ mission per location, each naming its order's reference", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey, { client_reference: "florence-landmarks" });
    const res = await confirm(api, own.apiKey, order.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("in_progress");
    expect(res.body.confirmed_at).toEqual(expect.any(String));
    expect(res.body.payments).toMatchObject([{ kind: "charge", status: "succeeded", amount_cents: 2400, payment_method: "pm_card_visa" }]);
    expect(res.body.amount_charged_cents).toBe(2400);
    expect(res.body.missions).toEqual({ total: 3, active: 3, completed: 0, cancelled: 0 });

    const missions = await api.request<{
      data: {
        id: string;
        required_images: number;
        location_id: string;
        order_id: string;
        order_reference: string | null;
        bounds: { coordinates: number[][][] };
      }[];
    }>("GET", `${ORDERS}/orders/${order.id}/missions`, { token: own.apiKey });
    expect(missions.body.data).toHaveLength(3);
    for (const m of missions.body.data) {
      expect(m.id).toMatch(/^mis_/);
      expect(m.required_images).toBe(2);
      expect(m.order_id).toBe(order.id);
      expect(m.order_reference).toBe("florence-landmarks");
    }
    // A real mission of the mission interface, around the ordered point.
    const client = await api.createClient(own.orgId, ["missions:read"]);
    const duomo = missions.body.data.find((m) => m.location_id === "loc_duomo");
    const mission = await api.request<{
      bounds: { coordinates: number[][][] };
      status: string;
      order_reference: string | null;
      deadline_at: string | null;
      description: string;
    }>("GET", `/api/v1/missions/${duomo?.id}`, { token: await api.token(client) });
    expect(mission.status).toBe(200);
    expect(mission.body.order_reference).toBe("florence-landmarks");
    // When it is due is a field, within the plan's promise of the confirmation; the brief names the
    // place and its angles and holds no time (a page shows times in its reader's language and clock).
    const confirmedAt = Date.parse(res.body.confirmed_at ?? "");
    const due = Date.parse(mission.body.deadline_at ?? "");
    expect(due).toBeGreaterThan(confirmedAt);
    expect(due - confirmedAt).toBeLessThanOrEqual(48 * 3_600_000);
    expect(mission.body.description).toMatch(/^Photograph .+, one photo per angle:\n• /);
    expect(mission.body.description).not.toMatch(/\d{4}-\d{2}-\d{2}T|Due by/);
    const ring = mission.body.bounds.coordinates[0] ?? [];
    const lats = ring.map((p) => p[1] ?? 0);
    expect(Math.min(...lats)).toBeLessThan(43.7731);
    expect(Math.max(...lats)).toBeGreaterThan(43.7731);
    expect(Math.max(...lats) - Math.min(...lats)).toBeLessThan(0.002);

    expectProblem(await confirm(api, own.apiKey, order.id), 409, "invalid_order_state");
    const photos = await api.request<{ data: unknown[]; meta: { total: number } }>("GET", `${ORDERS}/orders/${order.id}/photos`, { token: own.apiKey });
    expect(photos.body).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 20 } });
  });

  it("leaves a declined order payment_failed and lets it be retried", async () => {
    const own = await orderPartner(api);
    expect((await api.admin("PATCH", `/orgs/${own.orgId}`, { card_on_file: "pm_card_declined" })).status).toBe(200);
    const order = await createOrder(api, own.apiKey);
    const declined = await confirm(api, own.apiKey, order.id);
    expect(declined.status, declined.text).toBe(200);
    expect(declined.body).toMatchObject({ status: "payment_failed", status_reason: "The card was declined.", amount_charged_cents: 0, missions: { total: 0 } });
    expect(declined.body.payments).toMatchObject([{ status: "failed", failure_code: "card_declined" }]);
    const retried = await confirm(api, own.apiKey, order.id, { payment_method: "card", payment_method_id: "pm_card_visa" });
    expect(retried.body).toMatchObject({ status: "in_progress", amount_charged_cents: 2400, missions: { total: 3 } });
    expect(retried.body.payments.map((p) => p.status)).toEqual(["failed", "succeeded"]);
  });

  it("waits for card authentication, then dispatches", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey);
    const res = await confirm(api, own.apiKey, order.id, { payment_method: "card", payment_method_id: "pm_card_authentication_required" });
    expect(res.body.status).toBe("payment_action_required");
    const payment = res.body.payments[0];
    expect(payment?.next_action?.url).toBe(`${service.url}${ORDERS}/orders/${order.id}/payments/${payment?.id}/authenticate`);
    expectProblem(await confirm(api, own.apiKey, order.id), 409, "invalid_order_state");
    const done = await api.request<Order>("POST", `${ORDERS}/orders/${order.id}/payments/${payment?.id}/authenticate`, {
      token: own.apiKey,
      body: { authenticated: true },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ status: "in_progress", amount_charged_cents: 2400, missions: { total: 3 } });
  });

  it("refuses an unknown test payment method", async () => {
    const order = await createOrder(api, partner.apiKey);
    const res = await confirm(api, partner.apiKey, order.id, { payment_method: "card", payment_method_id: "pm_card_gold" });
    expect(pointersOf(expectProblem(res, 422, "validation_failed"))).toEqual(["/payment_method_id"]);
    expect(pointersOf(expectProblem(await confirm(api, partner.apiKey, order.id, { payment_method: "cash" }), 422, "validation_failed"))).toEqual([
      "/payment_method",
    ]);
  });

  it("refuses a confirmation past the plan's monthly quota with 402, naming the quota and the month's use", async () => {
    const own = await orderPartner(api, { plan: "developer" });
    const small = await createOrder(api, own.apiKey, { requirements: { angles: ["front", "entrance", "overview"] }, locations: manyLocations(4) });
    expect((await confirm(api, own.apiKey, small.id)).body.status).toBe("in_progress");
    const big = await createOrder(api, own.apiKey, { requirements: { angles: ["front", "entrance", "overview"] }, locations: manyLocations(330) });
    const refused = await confirm(api, own.apiKey, big.id);
    const problem = expectProblem(refused, 402, "plan_quota_exceeded");
    expect(problem.detail).toContain("1000 photos per calendar month; 12 are used this month and this order needs 990");
    expect((await api.request<Order>("GET", `${ORDERS}/orders/${big.id}`, { token: own.apiKey })).body.status).toBe("pending_confirmation");

    const orgs = await api.admin<{ data: { id: string; plan: string; usage: { photos: number; photos_per_month: number } }[] }>(
      "GET",
      "/orgs?q=order%20org&per_page=100",
    );
    expect(orgs.body.data.find((o) => o.id === own.orgId)).toMatchObject({ plan: "developer", usage: { photos: 12, photos_per_month: 1000 } });
    expect((await api.admin("PATCH", `/orgs/${own.orgId}`, { plan: "business" })).status).toBe(200);
    expect((await confirm(api, own.apiKey, big.id)).body).toMatchObject({ status: "in_progress", missions: { total: 330 } });
  });

  it("refunds undelivered work on cancel and cancels the order's missions", async () => {
    const own = await orderPartner(api);
    const order = await createOrder(api, own.apiKey);
    await confirm(api, own.apiKey, order.id);
    const res = await api.request<Order>("POST", `${ORDERS}/orders/${order.id}/cancel`, { token: own.apiKey, body: { reason: "Budget cut" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "cancelled", status_reason: "Cancelled: Budget cut", amount_charged_cents: 2400, amount_refunded_cents: 2400 });
    expect(res.body.missions).toEqual({ total: 3, active: 0, completed: 0, cancelled: 3 });
    expect(res.body.payments.map((p) => [p.kind, p.amount_cents, p.status])).toEqual([
      ["charge", 2400, "succeeded"],
      ["refund", 2400, "succeeded"],
    ]);
    expectProblem(await api.request("POST", `${ORDERS}/orders/${order.id}/cancel`, { token: own.apiKey }), 409, "invalid_order_state");
    expectProblem(await api.request("POST", `${ORDERS}/orders/${order.id}/pause`, { token: own.apiKey }), 409, "order_not_recurring");
  });

  it("cancels an unconfirmed order without charging", async () => {
    const order = await createOrder(api, partner.apiKey);
    const res = await api.request<Order>("POST", `${ORDERS}/orders/${order.id}/cancel`, { token: partner.apiKey });
    expect(res.body).toMatchObject({ status: "cancelled", payments: [], amount_refunded_cents: 0 });
    expectProblem(await confirm(api, partner.apiKey, order.id), 409, "invalid_order_state");
  });
});

describe("plan request limits", () => {
  it("counts Developer keys against 60 requests a minute, with the headers and Retry-After", async () => {
    const own = await orderPartner(api, { plan: "developer" });
    // All 61 requests in one minute of the clock: a new minute would start the count again.
    await awayFromWindowEnd(60, 20);
    let last;
    for (let i = 0; i < 60; i++) last = await api.request("GET", `${ORDERS}/delivery-secret`, { token: own.apiKey });
    if (!last) throw new Error("no request made");
    expect(last.status).toBe(200);
    expectRateLimitHeaders(last, 60, 60);
    const limited = await api.request("GET", `${ORDERS}/orders`, { token: own.apiKey });
    expectProblem(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
  }, 65_000);

  it("counts dashboard tokens against the dashboard's limits, not the plan's minute", async () => {
    const own = await orderPartner(api, { plan: "developer" });
    const user = await api.createUser(own.orgId, { email: `orders-dash-${Date.now()}@example.com`, password: "correct horse battery", role: "editor" });
    const { access_token } = await api.dashboardToken(user.id, own.orgId);
    const res = await api.request("GET", `${ORDERS}/orders`, { token: access_token });
    expect(res.status, res.text).toBe(200);
    expectRateLimitHeaders(res, 1200, 60);
  });

  it("gives Business 300 a minute and Enterprise no limit", async () => {
    const business = await orderPartner(api, { plan: "business" });
    expectRateLimitHeaders(await api.request("GET", `${ORDERS}/orders`, { token: business.apiKey }), 300, 60);
    const res = await api.request("GET", `${ORDERS}/orders`, { token: partner.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });
});

describe("operator", () => {
  it("changes the price list for new quotes while orders keep theirs", async () => {
    const order = await createOrder(api, partner.apiKey);
    const prices = await api.admin<Record<string, unknown> & { per_photo_cents: Record<string, number> }>("GET", "/price-list");
    expect(prices.body.per_photo_cents.cultural_exterior).toBe(400);
    const list = Object.fromEntries(Object.entries(prices.body).filter(([key]) => key !== "updated_at"));
    const changed = await api.admin("PUT", "/price-list", { ...list, per_photo_cents: { ...prices.body.per_photo_cents, cultural_exterior: 500 } });
    expect(changed.status, changed.text).toBe(200);
    try {
      const quote = await api.request<Quote>("POST", `${ORDERS}/orders/quote`, { token: partner.apiKey, body: orderBody() });
      expect(quote.body.total_cents).toBe(3000);
      expect((await api.request<Order>("GET", `${ORDERS}/orders/${order.id}`, { token: partner.apiKey })).body.quote.total_cents).toBe(2400);
      const bad = await api.admin("PUT", "/price-list", { ...list, currency: "euro" });
      expect(pointersOf(expectProblem(bad, 422, "validation_failed"))).toEqual(["/currency"]);
    } finally {
      await api.admin("PUT", "/price-list", list);
    }
  });

  it("refuses a plan that does not exist", async () => {
    const res = await api.admin("PATCH", `/orgs/${partner.orgId}`, { plan: "platinum" });
    expect(pointersOf(expectProblem(res, 422, "validation_failed"))).toEqual(["/plan"]);
  });
});

describe("drafts", () => {
  it("saves a wizard's draft with versions, refusing a save from a stale tab", async () => {
    const own = await orderPartner(api);
    const created = await api.request<{ id: string; version: number }>("POST", `${ORDERS}/drafts`, {
      token: own.apiKey,
      body: { body: { category: "cultural_exterior" }, step: "locations" },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^drf_/), version: 1 });
    const id = created.body.id;
    const saved = await api.request<{ version: number; body: Record<string, unknown> }>("PUT", `${ORDERS}/drafts/${id}`, {
      token: own.apiKey,
      headers: { "if-match": '"1"' },
      body: { body: { category: "cultural_exterior", locations: [] }, step: "what" },
    });
    expect(saved.body).toMatchObject({ version: 2, step: "what", body: { locations: [] } });
    expectProblem(
      await api.request("PUT", `${ORDERS}/drafts/${id}`, { token: own.apiKey, headers: { "if-match": '"1"' }, body: { body: {} } }),
      412,
      "draft_changed",
    );
    expect((await api.request<{ data: { id: string }[] }>("GET", `${ORDERS}/drafts`, { token: own.apiKey })).body.data.map((d) => d.id)).toEqual([id]);
    expectProblem(await api.request("GET", `${ORDERS}/drafts/${id}`, { token: partner.apiKey }), 404, "not_found");
    expect((await api.request("DELETE", `${ORDERS}/drafts/${id}`, { token: own.apiKey })).status).toBe(204);
    expectProblem(await api.request("GET", `${ORDERS}/drafts/${id}`, { token: own.apiKey }), 404, "not_found");
  });
});

describe("documents", () => {
  it("serves the order interface's own OpenAPI document and includes it in the public one", async () => {
    const own = await api.request<{ servers: { url: string }[]; paths: Record<string, unknown> }>("GET", `${ORDERS}/openapi.json`);
    expect(own.status).toBe(200);
    expect(own.body.servers).toEqual([{ url: `${service.url}${ORDERS}` }]);
    expect(Object.keys(own.body.paths)).toEqual(
      expect.arrayContaining(["/orders", "/orders/quote", "/orders/{id}/confirm", "/orders/{id}/schedule", "/delivery-secret"]),
    );
    const all = await api.request<{ paths: Record<string, unknown>; tags: { name: string }[] }>("GET", "/api/v1/openapi.json");
    expect(Object.keys(all.body.paths)).toContain(`${ORDERS}/orders/{id}/photos`);
    expect(all.body.tags.map((t) => t.name)).toContain("Orders");
  });
});
