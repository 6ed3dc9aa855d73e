// The delivery promise before paying: POST /orders/feasibility answers per location, in request
// order, whether it can be done, its next windows and an estimate from the service's own history
// near it (or none and why); the quote carries the order's estimate. History is made by a real
// order confirmed through the API whose missions are then marked delivered at chosen times.
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assignments, missions, submissions } from "@/lib/db/schema";
import { localParts } from "@/lib/geo/time-zone";
import type { Feasibility, Quote } from "@/lib/schemas/order";
import { expectProblem } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, confirm, createOrder, orderBody, orderPartner, type OrderPartner } from "./orders-client";

type QuotePreview = Quote & { delivery_estimate: Feasibility["estimate"]; delivery_estimate_reasons: Feasibility["reasons"] };

let service: TestService;
let api: TestClient;
let partner: OrderPartner;

const HOUR = 3_600_000;
/** Hours from opening to delivery of the five delivered history locations: p50 6, p90 8 + 0.6 × 22. */
const HISTORY_HOURS = [2, 4, 6, 8, 30];
const FLORENCE = { lat: 43.7731, lng: 11.256 };
const REYKJAVIK = { name: "Hallgrímskirkja", coordinates: { lat: 64.1417, lng: -21.9266 } };
const LONGYEARBYEN = { name: "Longyearbyen church", coordinates: { lat: 78.22, lng: 15.65 } };

const db = () => service.runtime.ctx.db;

/** A real order near the Duomo, confirmed, then its five locations delivered 10 days ago after HISTORY_HOURS; one contributor active 2 days ago. */
async function seedHistory() {
  const order = await createOrder(api, partner.apiKey, {
    requirements: { angles: ["front"] },
    locations: HISTORY_HOURS.map((_, i) => ({ name: `Past ${i}`, coordinates: { lat: FLORENCE.lat + i * 0.002, lng: FLORENCE.lng + i * 0.002 } })),
  });
  const confirmed = await confirm(api, partner.apiKey, order.id);
  expect(confirmed.status, confirmed.text).toBe(200);
  const rows = await db().select().from(missions).where(eq(missions.orderId, order.id));
  expect(rows).toHaveLength(HISTORY_HOURS.length);
  const opened = new Date(Date.now() - 10 * 24 * HOUR);
  for (const [i, mission] of rows.sort((a, b) => (a.locationId ?? "").localeCompare(b.locationId ?? "")).entries()) {
    const delivered = new Date(opened.getTime() + (HISTORY_HOURS[i] ?? 0) * HOUR);
    await db()
      .update(assignments)
      .set({ createdAt: opened, status: "verified", completedAt: delivered, deliveredAt: delivered })
      .where(eq(assignments.missionId, mission.id));
    await db().update(missions).set({ createdAt: opened, status: "completed", completedAt: delivered }).where(eq(missions.id, mission.id));
  }
  const zoomer = await api.createZoomer("Giulia");
  await db()
    .insert(submissions)
    .values({
      id: "sub_feasibility_history",
      missionId: rows[0]?.id ?? "",
      orgId: partner.orgId,
      zoomerId: zoomer.id,
      imageCount: 1,
      lat: FLORENCE.lat,
      lng: FLORENCE.lng,
      createdAt: new Date(Date.now() - 2 * 24 * HOUR),
    });
  const count = await db()
    .select({ id: assignments.id })
    .from(assignments)
    .where(
      inArray(
        assignments.missionId,
        rows.map((r) => r.id),
      ),
    );
  expect(count.length).toBe(HISTORY_HOURS.length);
}

beforeAll(async () => {
  // Its own service: the estimate counts zoomers near a place across all organisations.
  service = await startTestService({}, { fresh: true });
  api = new TestClient(service);
  partner = await orderPartner(api, { plan: "enterprise" });
  await seedHistory();
});
afterAll(() => service.close());

const feasibility = (body: unknown, token = partner.apiKey) => api.request<Feasibility>("POST", `${ORDERS}/orders/feasibility`, { token, body });

/** The next December's 10th and 11th, from today. */
function nextDecemberDates(): string[] {
  const now = new Date();
  const year = now.getUTCMonth() === 11 && now.getUTCDate() >= 10 ? now.getUTCFullYear() + 1 : now.getUTCFullYear();
  return [`${year}-12-10`, `${year}-12-11`];
}

describe("POST /orders/feasibility", () => {
  it("estimates a place with history from that history, with its basis", async () => {
    const res = await feasibility(orderBody());
    expect(res.status, res.text).toBe(200);
    expect(res.body.locations.map((l) => l.name)).toEqual(["Duomo", "Uffizi", "Ponte Vecchio"]);
    for (const location of res.body.locations) {
      expect(location.feasible).toBe(true);
      expect(location.reasons).toEqual([]);
      expect(location.estimate).toMatchObject({ p50_hours: 6, p90_hours: 21.2, basis: { similar_tasks: 5, zoomers_nearby_30d: 1, radius_km: 25 } });
      const deliverBy = Date.parse(location.estimate?.deliver_by ?? "");
      expect(Math.abs(deliverBy - (Date.now() + 21.2 * HOUR))).toBeLessThan(60_000);
      // daylight in Florence: each window starts and ends with the sun, within the week.
      expect(location.next_windows.length).toBeGreaterThan(0);
      expect(location.next_windows.length).toBeLessThanOrEqual(5);
      for (const w of location.next_windows) expect(w.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/);
    }
    expect(res.body.feasible).toBe(true);
    expect(res.body.estimate).toMatchObject({ p50_hours: 6, p90_hours: 21.2, basis: { similar_tasks: 5, zoomers_nearby_30d: 1, radius_km: 25 } });
    expect(res.body.reasons).toEqual([]);
  });

  it("gives a place without history no estimate and says why, keeping the request's order", async () => {
    const res = await feasibility(orderBody({ locations: [REYKJAVIK, { location_id: "loc_duomo", name: "Duomo", coordinates: FLORENCE }] }));
    expect(res.status, res.text).toBe(200);
    const [far, duomo] = res.body.locations;
    expect(far?.name).toBe(REYKJAVIK.name);
    expect(far?.location_id).toBeNull();
    expect(far?.estimate).toBeNull();
    expect(far?.feasible).toBe(false);
    expect(far?.reasons.map((r) => r.code)).toEqual(["no_contributors_nearby", "no_history"]);
    expect(far?.reasons[1]).toMatchObject({ params: { radius_km: 100 }, message: expect.stringContaining("no estimate") });
    expect(duomo).toMatchObject({ location_id: "loc_duomo", feasible: true, estimate: { p50_hours: 6 } });
    expect(res.body.feasible).toBe(false);
    expect(res.body.estimate).toBeNull();
    expect(res.body.reasons).toEqual([expect.objectContaining({ code: "location_without_estimate", params: { locations: 1, first: REYKJAVIK.name } })]);
  });

  it("finds Longyearbyen in December in daylight infeasible: polar night", async () => {
    const dates = nextDecemberDates();
    const res = await feasibility(
      orderBody({
        requirements: { angles: ["front"], time_of_day: "daylight" },
        locations: [LONGYEARBYEN],
        recurring: { enabled: true, event_nights_only: true, event_dates: dates },
      }),
    );
    expect(res.status, res.text).toBe(200);
    const [place] = res.body.locations;
    expect(place?.feasible).toBe(false);
    expect(place?.next_windows).toEqual([]);
    expect(place?.estimate).toBeNull();
    const polar = place?.reasons.find((r) => r.code === "polar_night");
    expect(polar, JSON.stringify(place?.reasons)).toBeDefined();
    expect(polar?.params).toMatchObject({ time_of_day: "daylight", date: dates[0] });
    expect(polar?.message).toContain("polar night");
    // The quote refuses what can never run; feasibility answers it.
    expect(
      (
        await api.request("POST", `${ORDERS}/orders/quote`, {
          token: partner.apiKey,
          body: orderBody({
            requirements: { angles: ["front"], time_of_day: "daylight" },
            locations: [LONGYEARBYEN],
            recurring: { enabled: true, event_nights_only: true, event_dates: dates },
          }),
        })
      ).status,
    ).toBe(422);
  });

  it("keeps every window of an 18:00–20:00 order inside those hours, local time", async () => {
    const res = await feasibility(
      orderBody({ requirements: { angles: ["front"] }, recurring: { enabled: true, frequency: "daily", time_window: "18:00-20:00" } }),
    );
    expect(res.status, res.text).toBe(200);
    for (const location of res.body.locations) {
      expect(location.next_windows).toHaveLength(5);
      for (const { start, end } of location.next_windows) {
        const [s, e] = [localParts(new Date(start), "Europe/Rome"), localParts(new Date(end), "Europe/Rome")];
        expect(s.hour * 60 + s.minute).toBeGreaterThanOrEqual(18 * 60);
        expect(e.hour * 60 + e.minute).toBeLessThanOrEqual(20 * 60);
        expect(e.hour * 60 + e.minute).toBeGreaterThan(s.hour * 60 + s.minute);
        expect([s.year, s.month, s.day]).toEqual([e.year, e.month, e.day]);
        // Written in local time too: the offset makes the string read 18:xx–20:00 there.
        expect(start.slice(11, 13) >= "18" && end.slice(11, 16) <= "20:00").toBe(true);
      }
      // A recurring order's estimate starts at its first window.
      const first = Date.parse(location.next_windows[0]?.start ?? "");
      expect(Date.parse(location.estimate?.deliver_by ?? "")).toBeCloseTo(first + 21.2 * HOUR, -4);
    }
  });

  it("answers a malformed body with a problem, and needs orders:write", async () => {
    const bad = await feasibility({ ...orderBody(), locations: [{ name: "Nowhere", coordinates: { lat: 200, lng: 0 } }] });
    const problem = expectProblem(bad, 422, "validation_failed");
    expect(JSON.stringify(problem)).toContain("/locations/0/coordinates/lat");
    const readOnly = await orderPartner(api, { access: "read_only" });
    expectProblem(await feasibility(orderBody(), readOnly.apiKey), 403, "insufficient_scope");
    expectProblem(await api.request("POST", `${ORDERS}/orders/feasibility`, { body: orderBody() }), 401, "unauthorized");
  });
});

describe("the quote's delivery_estimate", () => {
  it("carries the order's estimate where there is history", async () => {
    const res = await api.request<QuotePreview>("POST", `${ORDERS}/orders/quote`, { token: partner.apiKey, body: orderBody() });
    expect(res.status, res.text).toBe(200);
    expect(res.body.delivery_estimate).toMatchObject({ p50_hours: 6, p90_hours: 21.2, basis: { similar_tasks: 5, zoomers_nearby_30d: 1, radius_km: 25 } });
    expect(res.body.delivery_estimate_reasons).toEqual([]);
  });

  it("is null with the reason where a location has none", async () => {
    const res = await api.request<QuotePreview>("POST", `${ORDERS}/orders/quote`, { token: partner.apiKey, body: orderBody({ locations: [REYKJAVIK] }) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.delivery_estimate).toBeNull();
    expect(res.body.delivery_estimate_reasons.map((r) => r.code)).toEqual(["location_without_estimate"]);
  });
});
