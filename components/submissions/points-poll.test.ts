import { describe, expect, it } from "vitest";
import { POINTS_LIVE_MS, pointsPollInterval } from "./points-poll";

describe("pointsPollInterval", () => {
  it("keeps small missions live, and before the first answer", () => {
    expect(pointsPollInterval(undefined)).toBe(POINTS_LIVE_MS);
    expect(pointsPollInterval(0)).toBe(POINTS_LIVE_MS);
    expect(pointsPollInterval(10_000)).toBe(POINTS_LIVE_MS);
  });

  it("asks large missions less often in proportion, at least once a minute", () => {
    expect(pointsPollInterval(25_000)).toBe(10_000);
    expect(pointsPollInterval(100_000)).toBe(40_000);
    expect(pointsPollInterval(150_000)).toBe(60_000);
    expect(pointsPollInterval(1_000_000)).toBe(60_000);
  });
});
