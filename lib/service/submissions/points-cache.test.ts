import { describe, expect, it } from "vitest";
import { PointsCache, type CachedPoints } from "./points-cache";

const doc = (version: string, length: number): CachedPoints => ({ version, body: `${version}:`.padEnd(length, "x") });

describe("PointsCache", () => {
  it("answers a slot only for the version its document was built for", () => {
    const cache = new PointsCache(100);
    cache.set("m1|all", doc("v1", 10));
    expect(cache.get("m1|all", "v1")?.body).toMatch(/^v1:/);
    expect(cache.get("m1|all", "v2")).toBeUndefined();
    expect(cache.get("m2|all", "v1")).toBeUndefined();
  });

  it("keeps only the newest version of a slot", () => {
    const cache = new PointsCache(100);
    cache.set("m1|all", doc("v1", 10));
    cache.set("m1|all", doc("v2", 20));
    expect(cache.get("m1|all", "v1")).toBeUndefined();
    expect(cache.get("m1|all", "v2")?.body).toHaveLength(20);
    expect(cache.size).toBe(20);
  });

  it("evicts the least recently used documents beyond its budget", () => {
    const cache = new PointsCache(100);
    cache.set("a", doc("v", 40));
    cache.set("b", doc("v", 40));
    expect(cache.get("a", "v")).toBeDefined(); // a is now the most recently used
    cache.set("c", doc("v", 40));
    expect(cache.get("b", "v")).toBeUndefined();
    expect(cache.get("a", "v")).toBeDefined();
    expect(cache.get("c", "v")).toBeDefined();
    expect(cache.size).toBe(80);
  });

  it("does not keep a document larger than the whole budget, nor anything with a budget of 0", () => {
    const cache = new PointsCache(100);
    cache.set("a", doc("v", 30));
    cache.set("big", doc("v", 101));
    expect(cache.get("big", "v")).toBeUndefined();
    expect(cache.get("a", "v")).toBeDefined();
    const none = new PointsCache(0);
    none.set("a", doc("v", 1));
    expect(none.get("a", "v")).toBeUndefined();
    expect(none.size).toBe(0);
  });

  it("drops the slot's old document when its new one is too large to keep", () => {
    const cache = new PointsCache(100);
    cache.set("a", doc("v1", 50));
    cache.set("a", doc("v2", 200));
    expect(cache.get("a", "v1")).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

describe("PointsCache and gzip", () => {
  it("counts a document's gzip once made, evicting the least recently used beyond the budget", () => {
    const cache = new PointsCache(1000);
    const a = doc("v", 500);
    cache.set("a", a);
    cache.set("b", doc("v", 400));
    expect(cache.size).toBe(900);
    cache.noteGzipped("a", a, 150); // 1,050: over the budget, and a is the least recently used
    expect(cache.get("a", "v")).toBeUndefined();
    expect(cache.get("b", "v")).toBeDefined();
    expect(cache.size).toBe(400);
  });

  it("counts a gzip only once, and not for a document the slot no longer holds", () => {
    const cache = new PointsCache(1000);
    const old = doc("v1", 300);
    cache.set("a", old);
    const current = doc("v2", 300);
    cache.set("a", current);
    cache.noteGzipped("a", old, 100);
    expect(cache.size).toBe(300);
    cache.noteGzipped("a", current, 60);
    cache.noteGzipped("a", current, 60);
    expect(cache.size).toBe(360);
    // Replaced or evicted, the document takes its gzip's length with it.
    cache.set("a", doc("v3", 100));
    expect(cache.size).toBe(100);
  });
});
