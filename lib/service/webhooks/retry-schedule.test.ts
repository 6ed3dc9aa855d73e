import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, nextRetryDelayMs, RETRY_DELAYS_SECONDS } from "./retry-schedule";

describe("webhook retry schedule", () => {
  it("backs off exponentially over about three days, then stops", () => {
    const delays = Array.from({ length: MAX_ATTEMPTS }, (_, i) => nextRetryDelayMs(i + 1, { random: () => 0.5 }));
    expect(delays.slice(0, -1)).toEqual(RETRY_DELAYS_SECONDS.map((s) => s * 1000));
    expect(delays.at(-1)).toBeNull();
    const totalDays = RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0) / 86_400;
    expect(totalDays).toBeGreaterThan(2.5);
    expect(totalDays).toBeLessThan(3.5);
    for (let i = 1; i < RETRY_DELAYS_SECONDS.length; i++) expect(RETRY_DELAYS_SECONDS[i]).toBeGreaterThanOrEqual(RETRY_DELAYS_SECONDS[i - 1] ?? 0);
  });

  it("adds ±10 % jitter so endpoints recovering together are not hit at once", () => {
    expect(nextRetryDelayMs(1, { random: () => 0 })).toBe(54_000);
    expect(nextRetryDelayMs(1, { random: () => 0.999999 })).toBe(66_000);
  });

  it("scales for tests", () => {
    expect(nextRetryDelayMs(2, { scale: 0.001, random: () => 0.5 })).toBe(300);
  });
});
