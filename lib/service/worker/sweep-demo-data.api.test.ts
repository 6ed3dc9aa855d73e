// The demo's retention sweep over the real service: old demo data goes (rows and photo files),
// another organisation's data of the same age stays, live order work stays; and over a simulated
// week of demo activity (the simulator through the HTTP app, rows re-dated to a simulated clock
// that the sweep is given too) the photos kept on disk level off instead of growing.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { startDemoSimulator } from "@/lib/demo/demo-simulator";
import { sweepDemo } from "@/lib/demo/start-demo";
import { seedDemo } from "@/lib/demo/seed-demo";
import { TestClient, square } from "@/lib/service/http/tests/client";
import { startTestService, type TestService } from "@/lib/service/http/tests/harness";
import { confirm, createOrder, orderPartner, ORDERS } from "@/lib/service/http/tests/orders-client";
import { createZoomer, photo, submitPhotos, waitForDecision } from "@/lib/service/http/tests/photos";
import { sweepDemoData } from "./sweep-demo-data";

let service: TestService;
let api: TestClient;

beforeAll(async () => {
  // The simulated week sends a day's requests in seconds: the per-credential limits would stop it.
  const generous = { perMinute: 100_000, perHour: 1_000_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 1000 };
  service = await startTestService({ rateLimit: generous }, { worker: true });
  api = new TestClient(service);
});
afterAll(() => service.close());

const HOUR = 3_600_000;
const db = () => service.runtime.ctx.db;

/** Rows the organisation wrote since `since` now carry the time `at` (the simulated clock). */
async function redate(orgId: string, since: Date, at: Date) {
  for (const table of ["missions", "submissions", "images", "events", "orders", "order_cycles", "payments", "assignments"]) {
    await db().execute(
      sql`update ${sql.identifier(table)} set created_at = ${at.toISOString()} where org_id = ${orgId} and created_at >= ${since.toISOString()}`,
    );
  }
}

async function count(table: string, orgId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from ${sql.identifier(table)} where org_id = ${orgId}`);
  return row?.n ?? 0;
}

async function counts(orgId: string) {
  const tables = ["missions", "submissions", "images", "events", "orders", "order_cycles", "payments", "assignments", "webhook_deliveries"];
  return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t, orgId)] as const)));
}

async function photoKeys(orgId: string): Promise<string[]> {
  const rows = await queryRows<{ k: string | null }>(
    db(),
    sql`select unnest(array[storage_key, thumbnail_key, preview_key]) as k from images where org_id = ${orgId}`,
  );
  return rows.flatMap((r) => (r.k ? [r.k] : []));
}

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? await bytesUnder(path) : (await stat(path)).size;
  }
  return total;
}

async function decided(orgId: string) {
  const [row] = await queryRows<{ n: number }>(
    db(),
    sql`select count(*)::int as n from submissions where org_id = ${orgId} and status in ('received', 'processing')`,
  );
  return (row?.n ?? 0) === 0;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An organisation with a mission and two approved photos, a webhook, an order in progress and a cancelled one. */
async function busyOrganisation(name: string) {
  const partner = await orderPartner(api);
  const client = await api.createClient(partner.orgId, ["missions:read", "missions:write", "submissions:read", "webhooks:manage"]);
  const token = await api.token(client);
  expect((await api.request("POST", "/api/v1/webhooks", { token, body: { url: "http://127.0.0.1:59999/unreachable" } })).status).toBe(201);
  const mission = await api.createMission(token, { bounds: square(), required_images: 10 });
  const zoomer = await createZoomer(api);
  for (const seed of [1, 2]) {
    const sent = await submitPhotos(api, zoomer.token, mission.id, [{ bytes: await photo({ seed: seed + name.length * 10 }) }]);
    expect((await waitForDecision(api, token, String(sent.body.id))).status).toBe("approved");
  }
  const live = await createOrder(api, partner.apiKey, { client_reference: `${name}-live` });
  expect((await confirm(api, partner.apiKey, live.id)).body.status).toBe("in_progress");
  const gone = await createOrder(api, partner.apiKey, { client_reference: `${name}-cancelled` });
  await confirm(api, partner.apiKey, gone.id);
  expect((await api.request("POST", `${ORDERS}/orders/${gone.id}/cancel`, { token: partner.apiKey, body: {} })).status).toBe(200);
  return { ...partner, token, missionId: mission.id, liveOrderId: live.id, cancelledOrderId: gone.id };
}

describe("sweepDemoData", () => {
  it("removes old demo data and its photo files, keeps live order work, and leaves another organisation alone", async () => {
    const started = new Date(Date.now() - 1000);
    const demo = await busyOrganisation("Demo");
    const other = await busyOrganisation("Other");
    // Both organisations' rows are three days old; a fresh demo mission is not.
    const old = new Date(Date.now() - 72 * HOUR);
    await redate(demo.orgId, started, old);
    await redate(other.orgId, started, old);
    const fresh = await api.createMission(demo.token, { title: "Fresh", bounds: square(11.26, 43.77) });

    const otherBefore = await counts(other.orgId);
    const otherKeys = await photoKeys(other.orgId);
    const demoKeys = await photoKeys(demo.orgId);
    expect(otherKeys.length).toBe(6); // two originals, each with a thumbnail and a preview
    expect(demoKeys.length).toBe(6);
    expect(otherBefore.webhook_deliveries).toBeGreaterThan(0);

    const { store } = service.runtime.ctx;
    const report = await sweepDemoData(service.runtime.ctx, { orgIds: [demo.orgId], retentionHours: 24 });
    expect(report).toMatchObject({ images: 2, files: 6, orders: 1 });

    // The demo's old mission, photos, files, events and cancelled order are gone…
    expect((await api.request("GET", `/api/v1/missions/${demo.missionId}`, { token: demo.token })).status).toBe(404);
    expect(await photoKeys(demo.orgId)).toEqual([]);
    for (const key of demoKeys) expect(await store.stat(key)).toBeNull();
    expect((await api.request("GET", `${ORDERS}/orders/${demo.cancelledOrderId}`, { token: demo.apiKey })).status).toBe(404);
    const demoAfter = await counts(demo.orgId);
    expect(demoAfter).toMatchObject({ submissions: 0, images: 0 });
    const [oldEvents] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from events where org_id = ${demo.orgId} and created_at < now() - interval '24 hours'`,
    );
    expect(oldEvents?.n).toBe(0);
    // Only the new mission's event is still on its way to the webhook.
    const waiting = await queryRows<{ type: string }>(
      db(),
      sql`select e.type from webhook_deliveries d join events e on e.id = d.event_id where d.org_id = ${demo.orgId}`,
    );
    expect(waiting.map((w) => w.type)).toEqual(["mission.created"]);
    // …but the order still being fulfilled keeps its missions and tasks, and the new mission stays.
    const live = await api.request<{ status: string; missions: { total: number } }>("GET", `${ORDERS}/orders/${demo.liveOrderId}`, { token: demo.apiKey });
    expect(live.body).toMatchObject({ status: "in_progress", missions: { total: 3 } });
    expect(demoAfter.assignments).toBe(6);
    expect((await api.request("GET", `/api/v1/missions/${fresh.id}`, { token: demo.token })).status).toBe(200);

    // The other organisation, just as old, is untouched: rows, files, orders.
    expect(await counts(other.orgId)).toEqual(otherBefore);
    for (const key of otherKeys) expect(await store.stat(key)).not.toBeNull();
    expect((await api.request("GET", `/api/v1/missions/${other.missionId}`, { token: other.token })).status).toBe(200);
    expect((await api.request("GET", `${ORDERS}/orders/${other.cancelledOrderId}`, { token: other.apiKey })).status).toBe(200);
  }, 120_000);

  it("keeps the demo's disk use level over a simulated week", async () => {
    const { ctx, app } = service.runtime;
    let stepStarted = new Date(Date.now() - 1000);
    const { state } = await seedDemo(ctx);
    const simulator = startDemoSimulator(app, state, {
      burst: false,
      intervalMs: 3_600_000,
      partnerEveryMs: 3_600_000,
      orderShare: 0,
      size: { width: 640, height: 480 },
    });
    await simulator.burstDone;
    const photosDir = join(ctx.config.dataDir, "photos", state.orgId);
    const week = 7 * 24 * HOUR;
    const stepMs = 4 * HOUR;
    const start = Date.now() - week;
    const daily: { bytes: number; submissions: number; events: number }[] = [];
    const activeSeen: number[] = [];
    const activeFree = async () => {
      const [row] = await queryRows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from missions where org_id = ${state.orgId} and status = 'active' and order_id is null`,
      );
      return row?.n ?? 0;
    };
    let written = 0;
    try {
      for (let t = start; t <= start + week; t += stepMs) {
        const clock = new Date(t);
        await simulator.partnerRound(clock);
        const before = await bytesUnder(photosDir);
        activeSeen.push(await activeFree());
        for (let i = 0; i < 3; i++) {
          await simulator.act();
          activeSeen.push(await activeFree());
        }
        await waitUntil(() => decided(state.orgId));
        activeSeen.push(await activeFree());
        written += Math.max(0, (await bytesUnder(photosDir)) - before);
        await redate(state.orgId, stepStarted, clock);
        stepStarted = new Date();
        await sweepDemo(ctx, simulator, state, 24, clock);
        activeSeen.push(await activeFree());
        if ((t - start) % (24 * HOUR) === 0 && t > start) {
          daily.push({ bytes: await bytesUnder(photosDir), submissions: await count("submissions", state.orgId), events: await count("events", state.orgId) });
        }
      }
    } finally {
      await simulator.stop();
    }
    console.log(
      `[week] written ${written} bytes; at the end of each day: ${JSON.stringify(daily)}; active missions seen: ${Math.min(...activeSeen)}–${Math.max(...activeSeen)}`,
    );
    // Whenever a visitor might look, at least two missions are active (the demo keeps four).
    expect(activeSeen.length).toBeGreaterThan(200);
    expect(Math.min(...activeSeen)).toBeGreaterThanOrEqual(2);
    expect(daily).toHaveLength(7);
    const [day1, day2] = daily;
    if (!day1 || !day2) throw new Error("no daily figures");
    const later = daily.slice(2);
    // A day's worth is kept: after the first day the figures stop growing…
    expect(Math.max(...later.map((d) => d.bytes))).toBeLessThanOrEqual(Math.max(day1.bytes, day2.bytes) * 1.6);
    expect(Math.max(...later.map((d) => d.submissions))).toBeLessThanOrEqual(Math.max(day1.submissions, day2.submissions) * 1.6);
    expect(Math.max(...later.map((d) => d.events))).toBeLessThanOrEqual(Math.max(day1.events, day2.events) * 1.6);
    // …while far more than that was written over the week.
    expect(written).toBeGreaterThan(3 * (daily[6]?.bytes ?? 0));
    expect(daily[6]?.bytes).toBeGreaterThan(0);
  }, 300_000);
});
