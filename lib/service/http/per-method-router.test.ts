import { describe, expect, it } from "vitest";
import type { Result } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
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
  it("compiles GET into a RegExpRouter though POST's routes cannot all be compiled", () => {
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
    // POST's parameter routes in a RegExpRouter, its fixed path answered from a TrieRouter.
    expect(router.routerOf("POST")).toBe("FixedPathsThenRegExpRouter");
  });

  it("answers as a TrieRouter of the same routes does, fixed paths beside parameters included", () => {
    const routes: [string, string, string][] = [
      ["ALL", "*", "every request"],
      ["GET", "/api/orders/v1/orders", "list"],
      ["GET", "/api/orders/v1/orders/reports/on-time", "on-time report"],
      ["GET", "/api/orders/v1/orders/:id", "get order"],
      ["GET", "/api/orders/v1/orders/:id/photos", "photos"],
      ["GET", "/api/orders/v1/orders/:id/photos/:photo_id/evidence", "evidence"],
      ["ALL", "/api/orders/v1/orders/:id/*", "under an order"],
      ["GET", "/api/orders/v1/prices", "prices"],
    ];
    const router = new PerMethodRouter<string>();
    const trie = new TrieRouter<string>();
    for (const [method, path, handler] of routes) {
      router.add(method, path, handler);
      trie.add(method, path, handler);
    }
    const paths = [
      "/api/orders/v1/orders",
      "/api/orders/v1/orders/",
      "/api/orders/v1/orders/reports/on-time",
      "/api/orders/v1/orders/reports/on-time/",
      "/api/orders/v1/orders/reports",
      "/api/orders/v1/orders/reports/photos",
      "/api/orders/v1/orders/ord_1",
      "/api/orders/v1/orders/ord_1/photos",
      "/api/orders/v1/orders/ord_1/photos/ph_2/evidence",
      "/api/orders/v1/orders/ord_1/other",
      "/api/orders/v1/prices",
      "/api/orders/v1/prices/x",
      "/nowhere",
    ];
    for (const path of paths) {
      // Twice: the second answer of a fixed path is the kept one.
      for (let i = 0; i < 2; i++) expect(matched(router.match("GET", path)), path).toEqual(matched(trie.match("GET", path)));
    }
    expect(matched(router.match("GET", "/api/orders/v1/orders/reports/on-time")).map((m) => m.handler)).toEqual([
      "every request",
      "on-time report",
      "under an order",
    ]);
    expect(matched(router.match("GET", "/api/orders/v1/orders/reports/photos"))).toEqual([
      { handler: "every request", params: {} },
      { handler: "photos", params: { id: "reports" } },
      { handler: "under an order", params: { id: "reports" } },
    ]);
    expect(router.routerOf("GET")).toBe("FixedPathsThenRegExpRouter");
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
