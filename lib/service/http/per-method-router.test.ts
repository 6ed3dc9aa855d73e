import { describe, expect, it } from "vitest";
import type { Result } from "hono/router";
import { PerMethodRouter } from "./per-method-router";

/** Handlers and their params, whichever router answered (RegExpRouter answers with a param stash). */
function matched(result: Result<string>): { handler: string; params: Record<string, string> }[] {
  const [entries, stash] = result;
  return entries.map(([handler, params]) => ({
    handler,
    params: Object.fromEntries(Object.entries(params).map(([name, at]) => [name, stash && typeof at === "number" ? (stash[at] ?? "") : String(at)])),
  }));
}

function orderRoutes(): PerMethodRouter<string> {
  const router = new PerMethodRouter<string>();
  router.add("ALL", "*", "every request");
  router.add("GET", "/orders/:id", "get order");
  router.add("POST", "/orders/quote", "quote");
  // A fixed segment and a parameter in one place: RegExpRouter cannot compile POST's routes.
  router.add("POST", "/orders/:id/confirm", "confirm");
  return router;
}

describe("PerMethodRouter", () => {
  it("compiles GET into a RegExpRouter though POST's routes need the TrieRouter", () => {
    const router = orderRoutes();
    expect(matched(router.match("GET", "/orders/ord_1"))).toEqual([
      { handler: "every request", params: {} },
      { handler: "get order", params: { id: "ord_1" } },
    ]);
    expect(matched(router.match("POST", "/orders/quote"))).toEqual([
      { handler: "every request", params: {} },
      { handler: "quote", params: {} },
    ]);
    expect(matched(router.match("POST", "/orders/ord_2/confirm"))).toEqual([
      { handler: "every request", params: {} },
      { handler: "confirm", params: { id: "ord_2" } },
    ]);
    expect(router.routerOf("GET")).toBe("RegExpRouter");
    expect(router.routerOf("POST")).toBe("TrieRouter");
  });

  it("answers a method without routes of its own with the ALL routes alone", () => {
    const router = orderRoutes();
    expect(matched(router.match("OPTIONS", "/orders/ord_1")).map((m) => m.handler)).toEqual(["every request"]);
    expect(matched(router.match("GET", "/nowhere")).map((m) => m.handler)).toEqual(["every request"]);
  });

  it("refuses a route added after the first match", () => {
    const router = orderRoutes();
    router.match("GET", "/orders/ord_1");
    expect(() => router.add("GET", "/late", "late")).toThrow(/after the first request/);
  });
});
