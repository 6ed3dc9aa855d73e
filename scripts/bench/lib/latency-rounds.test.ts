import { describe, expect, it } from "vitest";
import { percentiles } from "./interleave";
import { formatLatencyCells, runLatencyRound, collectPerRoundFigures, runRoundsWithinBudget, formatSpreadOf } from "./latency-rounds";
import { wallClockMs } from "./wall-clock";

describe("runLatencyRound", () => {
  it("measures the sequential items one after another and the burst's items together, after preparing them all", async () => {
    const events: string[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const steps = {
      prepare: async (item: string) => {
        events.push(`prepare ${item}`);
      },
      measure: async (item: string) => {
        events.push(`measure ${item}`);
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return { item, totalMs: item.startsWith("s") ? 10 : 20, arrivedAt: wallClockMs() };
      },
    };
    const round = await runLatencyRound(steps, ["s1", "s2"], ["b1", "b2", "b3"], () => 0, percentiles);
    expect(events).toEqual([
      "prepare s1",
      "measure s1",
      "prepare s2",
      "measure s2",
      "prepare b1",
      "prepare b2",
      "prepare b3",
      "measure b1",
      "measure b2",
      "measure b3",
    ]);
    expect(mostAtOnce).toBe(3);
    expect(round.sequential.samples.map((s) => s.item)).toEqual(["s1", "s2"]);
    expect(round.sequential.totalMs).toMatchObject({ n: 2, p50: 10 });
    expect(round.burst.totalMs).toMatchObject({ n: 3, p50: 20 });
    expect(round.burst.seconds).toBeGreaterThan(0);
    expect(round.burst.deliveriesPerSecond).toBeGreaterThan(0);
  });
});

describe("runRoundsWithinBudget", () => {
  it("always runs the first round and starts no round after the budget is spent", async () => {
    const spent: number[] = [];
    const all = await runRoundsWithinBudget(3, { begun: performance.now(), budgetMs: 60_000, onBudgetSpent: (n) => spent.push(n) }, async (r) => r);
    expect(all).toEqual([0, 1, 2]);
    const late = await runRoundsWithinBudget(3, { begun: performance.now() - 1000, budgetMs: 10, onBudgetSpent: (n) => spent.push(n) }, async (r) => r);
    expect(late).toEqual([0]);
    expect(spent).toEqual([1]);
  });
});

describe("per-round figures and cells", () => {
  const round = (p50: number, p99: number, burstP50: number, rate: number) => ({
    sequential: { totalMs: { n: 10, min: 1, p50, p90: p99, p99, max: p99 } },
    burst: { totalMs: { n: 6, min: 1, p50: burstP50, p90: burstP50, p99: burstP50, max: burstP50 }, seconds: 1, deliveriesPerSecond: rate },
    loadAverage1m: 1,
  });
  it("lists each round's figures and writes their spread", () => {
    const figures = collectPerRoundFigures([round(700, 900, 1500, 2.5), round(650, 800, 1400, 3)]);
    expect(figures).toEqual({ p50: [700, 650], p99: [900, 800], burstP50: [1500, 1400], burstDeliveriesPerSecond: [2.5, 3] });
    expect(formatSpreadOf(figures.p50)).toBe("675 (650–700)");
    expect(formatLatencyCells({ n: 20, min: 1, p50: 675, p90: 850, p99: 900, max: 950 }, true)).toEqual(["20", "**675**", "850", "**900**", "950"]);
  });
});
