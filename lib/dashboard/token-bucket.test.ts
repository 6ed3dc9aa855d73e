import { describe, expect, it } from "vitest";
import { TokenBuckets } from "./token-bucket";

describe("TokenBuckets", () => {
  it("allows a burst of `capacity`, then refuses with the seconds until the next token", () => {
    const buckets = new TokenBuckets({ capacity: 3, perSecond: 0.5 });
    const t = 1_000_000;
    expect([1, 2, 3].map(() => buckets.take("u", t).ok)).toEqual([true, true, true]);
    expect(buckets.take("u", t)).toEqual({ ok: false, retryAfterSeconds: 2 });
  });

  it("refills at the rate, up to the capacity, per key", () => {
    const buckets = new TokenBuckets({ capacity: 2, perSecond: 1 });
    const t = 1_000_000;
    buckets.take("u", t);
    buckets.take("u", t);
    expect(buckets.take("u", t).ok).toBe(false);
    expect(buckets.take("other", t).ok).toBe(true);
    expect(buckets.take("u", t + 1_000).ok).toBe(true);
    expect(buckets.take("u", t + 1_000).ok).toBe(false);
    // A long pause fills the bucket to its capacity, not beyond.
    expect([1, 2, 3].map(() => buckets.take("u", t + 60_000).ok)).toEqual([true, true, false]);
  });

  it("forgets the longest idle key beyond maxKeys", () => {
    const buckets = new TokenBuckets({ capacity: 1, perSecond: 0.001, maxKeys: 2 });
    buckets.take("a", 0);
    buckets.take("b", 1);
    buckets.take("c", 2);
    // "a" was forgotten, so it starts with a full bucket again; "c" was not.
    expect(buckets.take("a", 3).ok).toBe(true);
    expect(buckets.take("c", 4).ok).toBe(false);
  });
});
