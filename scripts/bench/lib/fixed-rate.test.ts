import { describe, expect, it } from "vitest";
import { computeAchievedRate, runAtRate } from "./fixed-rate";
import { wallClockMs } from "./wall-clock";

describe("computeAchievedRate", () => {
  it("counts the intervals between the first and last start", () => {
    expect(computeAchievedRate([1000, 1100, 1200, 1300, 1400], 50)).toBe(10);
    expect(computeAchievedRate([1000], 50)).toBe(50);
    expect(computeAchievedRate([], 50)).toBe(50);
  });
});

describe("runAtRate", () => {
  it("starts calls on the schedule without waiting for earlier ones to finish", async () => {
    // No call finishes before the last one has started: a closed loop would wait forever.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const before = wallClockMs();
    const calls = await runAtRate(
      5,
      100,
      async (i) => {
        const at = wallClockMs();
        if (i === 4) release();
        await gate;
        return { i, at };
      },
      (c) => c.at,
    );
    expect(calls.list.map((c) => c.i)).toEqual([0, 1, 2, 3, 4]);
    // The last is due 20 ms + 4 × 10 ms after the call: never earlier (runAtRate sleeps again when
    // Node's timer fires early; a late one only delays it). 59.9: the epoch's float rounding.
    expect((calls.list[4]?.at ?? 0) - before).toBeGreaterThanOrEqual(59.9);
  });

  it("rethrows a failed call after the schedule", async () => {
    let started = 0;
    const run = runAtRate(
      3,
      200,
      async (i) => {
        started++;
        if (i === 0) throw new Error("first failed");
        return i;
      },
      () => 0,
    );
    await expect(run).rejects.toThrow("first failed");
    expect(started).toBe(3);
  });
});
