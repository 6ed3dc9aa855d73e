import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoff";

describe("backoffDelay", () => {
  const top = { baseMs: 1000, maxMs: 30_000, random: () => 1 };
  it("doubles from the base up to the cap", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, top))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });
  it("jitters within the upper half of the step", () => {
    expect(backoffDelay(2, { ...top, random: () => 0 })).toBe(2000);
    expect(backoffDelay(2, { ...top, random: () => 0.5 })).toBe(3000);
  });
  it("stays finite for absurd attempt counts", () => {
    expect(backoffDelay(10_000, top)).toBe(30_000);
  });
});
