// The demo's actors are well-behaved clients: over a rate limit they wait as long as Retry-After
// says and send the same request again (the same Idempotency-Key to the order interface).
import { describe, expect, it } from "vitest";
import { DemoApi, retryAfterMs, type DemoApp } from "./demo-api";

const credentials = { zoomer: { client_id: "z", client_secret: "s" }, partner: { client_id: "p", client_secret: "s" }, apiKey: "pm_key" };

/** An app that answers 429 (Retry-After: 1) `limited` times, then 201; it records what it got. */
function limitedApp(limited: number) {
  const seen: { at: number; key: string | null }[] = [];
  const app: DemoApp = {
    request: async (_path: string | URL | Request, init?: RequestInit) => {
      seen.push({ at: Date.now(), key: new Headers(init?.headers).get("idempotency-key") });
      if (seen.length <= limited) return Response.json({ code: "rate_limited" }, { status: 429, headers: { "retry-after": "1" } });
      return Response.json({ id: "order_1" }, { status: 201 });
    },
  } as DemoApp;
  return { app, seen };
}

describe("DemoApi over a rate limit", () => {
  it("waits Retry-After and resends the same request", async () => {
    const { app, seen } = limitedApp(1);
    const res = await new DemoApi(app, credentials).call("orders", "POST", "/api/orders/v1/orders", { a: 1 });
    expect(res).toMatchObject({ status: 201, body: { id: "order_1" } });
    expect(seen).toHaveLength(2);
    expect((seen[1]?.at ?? 0) - (seen[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(seen[1]?.key).toBeTruthy();
    expect(seen[1]?.key).toBe(seen[0]?.key);
  });

  it("gives the 429 back at once when stopped while waiting", async () => {
    const { app, seen } = limitedApp(5);
    const api = new DemoApi(app, credentials);
    const pending = api.call("orders", "GET", "/api/orders/v1/orders");
    setTimeout(() => api.stop(), 50);
    const started = Date.now();
    expect((await pending).status).toBe(429);
    expect(Date.now() - started).toBeLessThan(900);
    expect(seen).toHaveLength(1);
  });

  it("reads Retry-After in seconds, capped, with a second when it is missing", () => {
    expect(retryAfterMs("6")).toBe(6000);
    expect(retryAfterMs("3600")).toBe(60_000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT")).toBe(1000);
  });
});
