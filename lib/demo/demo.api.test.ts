// The demo over the real service (HTTP app, worker, embedded database): the seed places and
// confirms a one-off and a daily order through the order API; a completed mission is replaced by
// a new one; the simulated zoomer's wrong-way shots are retaken and the sets delivered, after
// which the partner places the next order; and a demo sign-in makes points arrive within seconds.
import { pointOnFeature, polygon } from "@turf/turf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mission } from "@/lib/schemas/mission";
import type { Order } from "@/lib/schemas/order";
import { ADMIN_TOKEN, startTestService, type TestService } from "@/lib/service/http/tests/harness";
import { TestClient } from "@/lib/service/http/tests/client";
import { createZoomer, photo, submitPhotos, waitForDecision } from "@/lib/service/http/tests/photos";
import type { Feasibility } from "@/lib/schemas/order";
import { HISTORY_REFERENCE } from "./demo-history";
import { DEMO_ONE_OFF_ORDERS, ONE_OFF_REFERENCE, REORDER_AFTER_MS } from "./demo-orders";
import { DEMO_USER } from "./demo-user";
import { FLORENCE_PLACES } from "./florence-places";
import { startDemo, sweepDemo, type RunningDemo } from "./start-demo";
import { pollUntil } from "@/lib/service/http/tests/poll-until";

let service: TestService;
let api: TestClient;
let demo: RunningDemo;

const SMALL = { width: 640, height: 480 };

function startTestDemo() {
  return startDemo(service.runtime, {
    intervalMs: 3_600_000, // no ticks during the test: it drives the simulator itself
    retentionHours: 24,
    sweepEveryMs: 3_600_000,
    simulator: {
      burst: false,
      size: SMALL,
      orderShare: 1,
      fulfil: { wrongWayRate: 1, nightShotRate: 0 },
      nudgeBurst: { actions: 3, spacingMs: 50, cooldownMs: 60_000 },
    },
  });
}

beforeAll(async () => {
  // The test drives the simulator far faster than its timers would (dozens of actions a minute):
  // limits above that pace keep it from waiting out 429s (which it does; see demo-api.test.ts).
  service = await startTestService({ rateLimit: { perMinute: 1200, perHour: 20_000, tokenPerMinute: 60, tokenPerMinutePerIp: 1000 } }, { worker: true });
  api = new TestClient(service);
  demo = await startTestDemo();
  await demo.simulator.burstDone;
  // The test reads with credentials of its own in the demo organisation: sharing the simulated
  // partner's would count the test's polling against the simulator's rate limits.
  reader = {
    client: await api.createClient(demo.state.orgId, ["missions:read", "missions:write", "submissions:read"]),
    apiKey: await readerKey(demo.state.orgId),
  };
});

async function readerKey(orgId: string): Promise<string> {
  const res = await api.admin<{ api_key: string }>("POST", `/orgs/${orgId}/api-keys`, { name: "test reader" });
  if (res.status !== 201) throw new Error(`api key: ${res.status} ${res.text}`);
  return res.body.api_key;
}
afterAll(async () => {
  await demo.stop();
  await service.close();
});

let reader: { client: { client_id: string; client_secret: string }; apiKey: string };
/** The demo partner's live orders (its month of history aside). */
const orders = async () =>
  (await api.request<{ data: Order[] }>("GET", "/api/orders/v1/orders?per_page=100", { token: reader.apiKey })).body.data.filter(
    (o) => !o.client_reference?.startsWith(HISTORY_REFERENCE),
  );
const history = async () =>
  (await api.request<{ data: Order[] }>("GET", "/api/orders/v1/orders?per_page=100&status=fulfilled", { token: reader.apiKey })).body.data.filter((o) =>
    o.client_reference?.startsWith(`${HISTORY_REFERENCE}-`),
  );
const partnerToken = () => api.token(reader.client);
const activeFree = async (token: string) =>
  (await api.request<{ data: Mission[] }>("GET", "/api/v1/missions?status=active&per_page=100", { token })).body.data.filter((m) => m.order_id === null);

const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000) => pollUntil(read, done, timeoutMs, 150);

describe("the demo", () => {
  it("seeds a one-off and a daily order through the order API and confirms them, once", async () => {
    const placed = await orders();
    const oneOff = placed.filter((o) => o.recurring === null || !o.recurring.enabled);
    const daily = placed.filter((o) => o.recurring?.enabled);
    expect(oneOff).toHaveLength(1);
    expect(daily).toHaveLength(1);
    expect(oneOff[0]).toMatchObject({ status: "in_progress", client_reference: ONE_OFF_REFERENCE, category: "cultural_exterior" });
    expect(oneOff[0]?.locations.map((l) => l.name)).toEqual(["Duomo", "Palazzo Vecchio"]);
    expect(daily[0]).toMatchObject({ status: "active", recurring: { enabled: true, frequency: "daily" }, requirements: { time_of_day: "daylight" } });
    for (const order of placed) {
      expect(order.confirmed_at).not.toBeNull();
      expect(order.amount_charged_cents).toBeGreaterThan(0);
      expect(order.payments.every((p) => p.status === "succeeded")).toBe(true);
    }
    expect(await activeFree(await partnerToken())).toHaveLength(4);

    // A restart finds the seed and the orders: nothing is placed twice.
    await demo.stop();
    demo = await startTestDemo();
    await demo.simulator.burstDone;
    expect(demo.fresh).toBe(false);
    expect((await orders()).map((o) => o.id).sort()).toEqual(placed.map((o) => o.id).sort());
  });

  it("publishes a new mission at another place when one completes", async () => {
    const token = await partnerToken();
    const before = await activeFree(token);
    const target = before[before.length - 1];
    if (!target) throw new Error("no active mission");
    expect((await api.request("PATCH", `/api/v1/missions/${target.id}`, { token, body: { required_images: 1 } })).status).toBe(200);
    const zoomer = await createZoomer(api);
    const [lng, lat] = pointOnFeature(polygon(target.bounds.coordinates)).geometry.coordinates as [number, number];
    const sent = await submitPhotos(api, zoomer.token, target.id, [{ bytes: await photo({ lat, lng, seed: 777 }) }]);
    expect(sent.status).toBe(202);
    expect((await waitForDecision(api, token, String(sent.body.id))).status).toBe("approved");
    expect((await api.request<Mission>("GET", `/api/v1/missions/${target.id}`, { token })).body.status).toBe("completed");

    const { published } = await demo.simulator.partnerRound();
    expect(published).toHaveLength(1);
    const after = await activeFree(token);
    expect(after).toHaveLength(4);
    const placeOf = (m: Mission) => FLORENCE_PLACES.find((p) => m.title.startsWith(`${p.name} — `))?.key;
    const places = after.map(placeOf);
    expect(new Set(places).size).toBe(4);
    expect(places).not.toContain(undefined);
    expect(after.map((m) => m.id)).not.toContain(target.id);
  });

  it("fulfils the orders through the field API with retakes and deliveries, then orders again", async () => {
    const [oneOff] = (await orders()).filter((o) => !o.recurring?.enabled);
    if (!oneOff) throw new Error("no one-off order");
    type Work = { data: { angle: string; attempt: number; status: string; delivered_at: string | null }[] };
    const work = () =>
      api.request<Work>("GET", `/api/orders/v1/orders/${oneOff.id}/assignments?per_page=100`, { token: reader.apiKey }).then((r) => r.body.data);
    const settled = (rows: Work["data"]) => rows.every((a) => a.status !== "submitted");
    for (let i = 0; i < 120; i++) {
      const order = (await api.request<Order>("GET", `/api/orders/v1/orders/${oneOff.id}`, { token: reader.apiKey })).body;
      if (order.status === "fulfilled" || order.status === "partially_fulfilled") break;
      if (i === 119) throw new Error(`not fulfilled after 120 actions: ${order.status}; ${JSON.stringify(await work()).slice(0, 800)}`);
      await demo.simulator.act();
      await until(work, settled); // verification (and any retake) before the next shot
    }
    const rows = await work();
    // Every first shot of a facing angle was taken facing away: each was retaken.
    expect(rows.filter((a) => a.attempt === 0).every((a) => a.status === "failed")).toBe(true);
    expect(rows.some((a) => a.attempt >= 1 && a.status === "verified")).toBe(true);
    const fulfilled = await until(
      () => api.request<Order>("GET", `/api/orders/v1/orders/${oneOff.id}`, { token: reader.apiKey }).then((r) => r.body),
      (o) => o.status === "fulfilled",
    );
    expect(fulfilled.missions).toMatchObject({ total: 2, completed: 2 });
    const photos = await api.request<{ data: { angle: string; verification: { status: string } }[] }>("GET", `/api/orders/v1/orders/${oneOff.id}/photos`, {
      token: reader.apiKey,
    });
    expect(photos.body.data).toHaveLength(4);
    expect(photos.body.data.every((p) => p.verification.status === "approved")).toBe(true);

    // The order missions count verified photos only: 2 of 2, never the wrong-way shots.
    const missions = await api.request<{ data: Mission[] }>("GET", `/api/orders/v1/orders/${oneOff.id}/missions`, { token: reader.apiKey });
    expect(missions.body.data.map((m) => [m.approved_images, m.required_images, m.extra_images])).toEqual([
      [2, 2, 0],
      [2, 2, 0],
    ]);

    // Not at once while the daily order still offers tasks: the partner orders again a while
    // after the last order ended — unless the field would have no order work left, then at once.
    const dailyOrder = (await orders()).find((o) => o.recurring?.enabled);
    if (!dailyOrder) throw new Error("no daily order");
    const dailyWork = (await api.request<Work>("GET", `/api/orders/v1/orders/${dailyOrder.id}/assignments?per_page=100`, { token: reader.apiKey })).body.data;
    const fieldHasWork = dailyWork.some((a) => a.status === "open" || a.status === "reserved");
    const soon = await demo.simulator.partnerRound();
    expect(soon.placed).toHaveLength(fieldHasWork ? 0 : 1);
    const { placed } = fieldHasWork ? await demo.simulator.partnerRound(new Date(Date.now() + REORDER_AFTER_MS + 60_000)) : soon;
    expect(placed).toHaveLength(1);
    expect(placed[0]?.status).toBe("in_progress");
    const nextPlaces = placed[0]?.locations.map((l) => l.location_id) ?? [];
    expect(nextPlaces.some((id) => id === "loc_duomo" || id === "loc_palazzo_vecchio")).toBe(false);
    expect(DEMO_ONE_OFF_ORDERS.some((plan) => plan.places.every((key) => nextPlaces.includes(`loc_${key}`)))).toBe(true);
  }, 300_000);

  it("a visitor arriving after every mission completed finds missions active at once, and points arrive within seconds", async () => {
    const token = await partnerToken();
    const zoomer = await createZoomer(api);
    // Every active mission of the demo's own completes (one more approved photo each).
    for (const mission of await activeFree(token)) {
      const current = (await api.request<Mission>("GET", `/api/v1/missions/${mission.id}`, { token })).body;
      expect((await api.request("PATCH", `/api/v1/missions/${mission.id}`, { token, body: { required_images: current.approved_images + 1 } })).status).toBe(
        200,
      );
      const [lng, lat] = pointOnFeature(polygon(mission.bounds.coordinates)).geometry.coordinates as [number, number];
      const sent = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: await photo({ lat, lng, seed: 900 + current.approved_images }) }]);
      // A photo the simulator sent earlier may still be in QA: approved, it completes the mission
      // first, and ours is refused as too late (409 mission_not_active), which is what this loop wants.
      if (sent.status === 409 && sent.body.code === "mission_not_active")
        expect((await api.request<Mission>("GET", `/api/v1/missions/${mission.id}`, { token })).body.status).toBe("completed");
      else {
        expect(sent.status, sent.text).toBe(202);
        expect((await waitForDecision(api, token, String(sent.body.id))).status).toBe("approved");
      }
      await until(
        () => api.request<Mission>("GET", `/api/v1/missions/${mission.id}`, { token }).then((r) => r.body.status),
        (s) => s === "completed",
      );
    }
    const completed = new Set(
      (await api.request<{ data: Mission[] }>("GET", "/api/v1/missions?status=completed&per_page=100", { token })).body.data.map((m) => m.id),
    );
    const count = async () => {
      const all = await api.request<{ data: Mission[] }>("GET", "/api/v1/missions?status=all&per_page=100", { token });
      return all.body.data.reduce((sum, m) => sum + m.submissions, 0);
    };
    const before = await count();

    // The visitor signs in: by the time the sign-in answers, the missions are topped up…
    const signIn = await api.request("POST", "/api/admin/v1/dashboard/sign-in", {
      token: ADMIN_TOKEN,
      body: { email: DEMO_USER.email, password: DEMO_USER.password },
    });
    expect(signIn.status).toBe(200);
    const active = await activeFree(token);
    expect(active).toHaveLength(4);
    expect(active.some((m) => completed.has(m.id))).toBe(false);
    // …and a burst sends photos within seconds.
    const after = await until(count, (n) => n >= before + 2, 20_000);
    expect(after).toBeGreaterThanOrEqual(before + 2);
  }, 120_000);

  it("seeds a month of delivered orders near Florence: Florence gets an estimate with its basis, Oslo none yet, and the sweep keeps them", async () => {
    const past = await history();
    expect(past.length).toBeGreaterThanOrEqual(30);
    expect(past.every((o) => o.status === "fulfilled")).toBe(true);
    const placed = past.map((o) => Date.parse(o.created_at));
    expect(Date.now() - Math.min(...placed)).toBeGreaterThan(28 * 86_400_000);
    expect(Date.now() - Math.min(...placed)).toBeLessThan(31 * 86_400_000);
    // The simulated contributor did the work: retakes where a first shot failed, every location delivered.
    const [first] = past;
    if (!first) throw new Error("no history");
    const tasks = (
      await api.request<{ data: { status: string; attempt: number; delivered_at: string | null }[] }>(
        "GET",
        `/api/orders/v1/orders/${first.id}/assignments?per_page=100`,
        { token: reader.apiKey },
      )
    ).body.data;
    expect(tasks.filter((t) => t.status === "verified").length).toBe(4);
    expect(tasks.every((t) => t.status === "verified" || t.status === "failed")).toBe(true);
    // Its missions name their order, as dispatched ones do (the missions list shows it).
    const missions = (await api.request<{ data: Mission[] }>("GET", `/api/orders/v1/orders/${first.id}/missions`, { token: reader.apiKey })).body.data;
    expect(missions.length).toBeGreaterThan(0);
    expect(missions.map((m) => m.order_reference)).toEqual(missions.map(() => first.client_reference));

    // The contributor is active in Florence (the simulator's photos); no one near Oslo.
    await demo.simulator.act();
    const body = {
      category: "cultural_exterior",
      requirements: { angles: ["front"] },
      locations: [
        { name: "Loggia dei Lanzi", coordinates: { lat: 43.7694, lng: 11.2556 } },
        { name: "Oslo City Hall", coordinates: { lat: 59.9114, lng: 10.7339 } },
      ],
    };
    const res = await api.request<Feasibility>("POST", "/api/orders/v1/orders/feasibility", { token: reader.apiKey, body });
    expect(res.status).toBe(200);
    const [florence, oslo] = res.body.locations;
    expect(florence?.estimate?.basis.similar_tasks).toBeGreaterThanOrEqual(60);
    expect(florence?.estimate?.basis.radius_km).toBe(25);
    expect(florence?.estimate?.basis.zoomers_nearby_30d).toBeGreaterThanOrEqual(1);
    // The contributor's pace: 9 in 10 within about a day, half within a working day.
    expect(florence?.estimate?.p90_hours).toBeGreaterThan(12);
    expect(florence?.estimate?.p90_hours).toBeLessThan(36);
    expect(florence?.estimate?.p50_hours).toBeLessThan(florence?.estimate?.p90_hours ?? 0);
    expect(florence?.feasible).toBe(true);
    expect(oslo?.estimate).toBeNull();
    expect(oslo?.feasible).toBe(false);
    expect(oslo?.reasons.map((r) => r.code).sort()).toEqual(["no_contributors_nearby", "no_history"]);

    // The on-time report has the month: most locations delivered by their promise, some late.
    const month = (back: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - back, 1)).toISOString().slice(0, 7);
    const report = await api.request<{ months: { month: string; locations_delivered: number; delivered_on_time: number; delivered_late: number }[] }>(
      "GET",
      `/api/orders/v1/orders/reports/on-time?from=${month(1)}&to=${month(0)}`,
      { token: reader.apiKey },
    );
    expect(report.status).toBe(200);
    const sum = (key: "locations_delivered" | "delivered_on_time" | "delivered_late") => report.body.months.reduce((n, m) => n + m[key], 0);
    expect(sum("locations_delivered")).toBeGreaterThanOrEqual(2 * past.length);
    expect(sum("delivered_late")).toBeGreaterThan(0);
    expect(sum("delivered_on_time")).toBeGreaterThan(sum("delivered_late"));
    expect(past.every((o) => o.delivery_status === "delivered_on_time" || o.delivery_status === "delivered_late")).toBe(true);
    expect(past.some((o) => o.delivery_status === "delivered_late")).toBe(true);

    // A day later the retention sweep removes the demo's old work, never its history.
    await sweepDemo(service.runtime.ctx, demo.simulator, demo.state, 24, new Date(Date.now() + 2 * 86_400_000));
    expect((await history()).map((o) => o.id).sort()).toEqual(past.map((o) => o.id).sort());
    // A restart writes no second month.
    await demo.stop();
    demo = await startTestDemo();
    await demo.simulator.burstDone;
    expect((await history()).length).toBe(past.length);
  }, 120_000);
});
