import { describe, expect, it } from "vitest";
import { profilePasses } from "./in-process-profile";
import { measureRounds, type Variant } from "./rounds";

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

function variant(name: string, ms: number, order: string[]): Variant {
  return {
    name,
    label: name,
    pass: () => {
      order.push(name);
      busy(ms);
      return Promise.resolve();
    },
  };
}

describe("measureRounds", () => {
  it("times every variant in rotating rounds against the first and puts the goal on the named ratios only", async () => {
    const order: string[] = [];
    // Twelve times the baseline's time, so that a pass overshooting its busy wait on a loaded machine
    // cannot carry the ratio past its bounds: at 10 ms against 20 one round read 1.113 beside a
    // second CI run; at 5 against 30 the median read 0.606 in a CI run (the baseline's 5 ms
    // stretched to 18). Now the baseline would need 36 ms, or the subject 167.
    const variants = [variant("base", 5, order), variant("subject", 60, order), variant("other", 3, order)];
    const result = await measureRounds(variants, { bytes: 1000, files: 1 }, { warmupRounds: 1, rounds: 3, minRoundSeconds: 0.001 }, () => undefined, {
      min: 0.4,
      on: "subject",
    });
    expect(result.passesPerRound).toBe(1);
    // Warm-up, then three rounds, each starting one variant later.
    expect(order).toEqual(["base", "subject", "other", "base", "subject", "other", "subject", "other", "base", "other", "base", "subject"]);
    expect(result.timings.map((t) => t.roundSeconds.length)).toEqual([3, 3, 3]);
    expect(result.loadAverage1m).toHaveLength(3);
    const [subject, other] = result.ratios;
    expect(subject?.name).toBe("subject / base");
    // Twelve times the baseline's time: about a twelfth of its throughput (a loaded machine stretches both).
    expect(subject?.value).toBeGreaterThan(0.03);
    expect(subject?.value).toBeLessThan(0.6);
    expect(subject?.goal).toBe(0.4);
    expect(subject?.meetsGoal).toBe((subject?.value ?? 0) >= 0.4);
    expect(other?.name).toBe("other / base");
    expect(other?.goal).toBeUndefined();
    expect(result.cpuRatios.map((r) => r.name)).toEqual(["CPU time: subject / base", "CPU time: other / base"]);
  });
});

describe("profilePasses", () => {
  it("does nothing unless --profile asked for it", async () => {
    let passes = 0;
    const profile = await profilePasses(false, "/nonexistent", "x", 3, () => {
      passes++;
      return Promise.resolve();
    });
    expect(profile).toBeUndefined();
    expect(passes).toBe(0);
  });
});
