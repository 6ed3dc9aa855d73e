import { describe, expect, it } from "vitest";
import { serviceReachable } from "./reachability";

const answering =
  (status: number): typeof fetch =>
  () =>
    Promise.resolve(new Response("{}", { status }));

describe("serviceReachable", () => {
  it("is true when the health check answers 2xx", async () => {
    expect(await serviceReachable({ fetchImpl: answering(200) })).toBe(true);
  });

  it("is false on a network error (the browser may still say online)", async () => {
    expect(await serviceReachable({ fetchImpl: () => Promise.reject(new TypeError("Failed to fetch")) })).toBe(false);
  });

  it("is false when the answer is not 2xx (a captive portal's page, a proxy's 502)", async () => {
    expect(await serviceReachable({ fetchImpl: answering(502) })).toBe(false);
  });

  it("is false when nothing answers within the time allowed", async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason as Error)));
    const started = Date.now();
    expect(await serviceReachable({ timeoutMs: 50, fetchImpl: hanging })).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
