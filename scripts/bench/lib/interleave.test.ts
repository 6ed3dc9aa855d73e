import { describe, expect, it } from "vitest";
import { interleave, median, medianSample, nearestRank, pairedRatio, percentiles, rotation, spread, spreadText, table, type Pauser } from "./interleave";

describe("rotation", () => {
  it("starts round r at the r-th target, so each goes first equally often", () => {
    const targets = ["bare", "peer", "ours"];
    expect(rotation(targets, 0)).toEqual(["bare", "peer", "ours"]);
    expect(rotation(targets, 1)).toEqual(["peer", "ours", "bare"]);
    expect(rotation(targets, 2)).toEqual(["ours", "bare", "peer"]);
    expect(rotation(targets, 3)).toEqual(targets);
    const firsts = [0, 1, 2, 3, 4, 5].map((r) => rotation(targets, r)[0]);
    expect(firsts.filter((t) => t === "ours")).toHaveLength(2);
  });
});

describe("statistics", () => {
  it("takes the median of odd and even counts without reordering the input", () => {
    const values = [5, 1, 3];
    expect(median(values)).toBe(3);
    expect(values).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });

  it("reports a spread with median, range and rounded per-round values", () => {
    expect(spread([2, 1.23456, 3])).toEqual({ value: 2, min: 1.235, max: 3, perRound: [2, 1.235, 3] });
  });

  it("pairs ratios by round and leaves out rounds without a valid divisor", () => {
    // Rounds 1 and 3 pair up; round 2 has a zero divisor, round 4 has no divisor.
    const ratio = pairedRatio([100, 50, 90, 70], [50, 0, 100]);
    expect(ratio).toEqual({ value: 1.45, min: 0.9, max: 2, perRound: [2, 0.9] });
    expect(pairedRatio([1, 2], [0, Number.NaN])).toBeUndefined();
    // A paired ratio is not the ratio of medians: the per-round pairing keeps drift out.
    const drifting = pairedRatio([100, 200, 400], [50, 100, 200]);
    expect(drifting?.value).toBe(2);
    expect(drifting?.min).toBe(2);
  });

  it("takes nearest-rank percentiles: p99 of 100 samples is the 99th, not an interpolation", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted
    expect(percentiles(hundred)).toEqual({ n: 100, min: 1, p50: 50, p90: 90, p99: 99, max: 100 });
    expect(nearestRank([1, 2, 3], 50)).toBe(2);
    expect(nearestRank([], 99)).toBe(0);
    expect(percentiles([1.26, 1.24], (n) => Math.round(n * 10) / 10)).toMatchObject({ min: 1.2, p50: 1.2, max: 1.3 });
  });

  it("picks the sample at the median (lower middle for an even count)", () => {
    const rounds = [{ rps: 30 }, { rps: 10 }, { rps: 20 }, { rps: 40 }];
    expect(medianSample(rounds, (r) => r.rps)).toEqual({ rps: 20 });
    expect(medianSample(rounds.slice(0, 3), (r) => r.rps)).toEqual({ rps: 20 });
    expect(medianSample([], (r: { rps: number }) => r.rps)).toBeUndefined();
  });
});

describe("interleave", () => {
  const targets = [{ name: "bare" }, { name: "peer" }, { name: "ours" }];

  it("gives every target one turn per case per round, rotating, and keeps samples per target and case", async () => {
    const turns: string[] = [];
    const result = await interleave({
      rounds: 2,
      targets,
      cases: [{ name: "get" }, { name: "list" }],
      sample: async (target, turn) => {
        turns.push(`${turn.round}:${turn.case.name}:${target.name}`);
        return `${target.name}@${turn.round}`;
      },
    });
    expect(turns).toEqual([
      "0:get:bare",
      "0:get:peer",
      "0:get:ours",
      "0:list:bare",
      "0:list:peer",
      "0:list:ours",
      "1:get:peer",
      "1:get:ours",
      "1:get:bare",
      "1:list:peer",
      "1:list:ours",
      "1:list:bare",
    ]);
    expect(result.of("ours", "list")).toEqual(["ours@0", "ours@1"]);
    expect(result.of("ours")).toEqual([]);
    expect(result.loadAverage1m).toHaveLength(2);
  });

  it("warms every target up once, in order, before the first measured turn", async () => {
    const events: string[] = [];
    await interleave({
      rounds: 2,
      targets,
      warmUp: async (target) => {
        events.push(`warm ${target.name}`);
      },
      sample: async (target, turn) => {
        events.push(`${turn.round} ${target.name}`);
        return 0;
      },
    });
    expect(events).toEqual(["warm bare", "warm peer", "warm ours", "0 bare", "0 peer", "0 ours", "1 peer", "1 ours", "1 bare"]);
  });

  it("runs warm-up rounds like measured ones, discards their samples and continues the rotation", async () => {
    const events: string[] = [];
    const result = await interleave({
      rounds: 2,
      warmupRounds: 1,
      targets,
      sample: async (target, turn) => `${target.name}${turn.warmup ? " warm" : ""}@${turn.round}`,
      onSample: (target, turn) => events.push(`${turn.warmup ? "w" : ""}${turn.round} ${target.name}`),
    });
    expect(events).toEqual(["w0 bare", "w0 peer", "w0 ours", "0 peer", "0 ours", "0 bare", "1 ours", "1 bare", "1 peer"]);
    expect(result.of("ours")).toEqual(["ours@0", "ours@1"]);
    expect(result.loadAverage1m).toHaveLength(2);
  });

  it("runs a paused target only in its own turns and resumes everything at the end, even on failure", async () => {
    const events: string[] = [];
    const running = new Set<string>(targets.map((t) => t.name));
    const pauser: Pauser<{ name: string }> = {
      pause: (t) => {
        if (t.name !== "ours") return;
        running.delete(t.name);
        events.push("stop");
      },
      resume: (t) => {
        if (t.name !== "ours") return;
        running.add(t.name);
        events.push("cont");
      },
    };
    const seen: boolean[] = [];
    await interleave({
      rounds: 1,
      targets,
      pauser,
      sample: async (target) => {
        seen.push(running.has("ours") === (target.name === "ours"));
        return 0;
      },
    });
    expect(seen).toEqual([true, true, true]);
    expect(running.has("ours")).toBe(true);

    events.length = 0;
    await expect(
      interleave({
        rounds: 1,
        targets,
        pauser,
        sample: async (target) => {
          if (target.name === "peer") throw new Error("peer died");
          return 0;
        },
      }),
    ).rejects.toThrow("peer died");
    expect(events.at(-1)).toBe("cont");
    expect(running.has("ours")).toBe(true);
  });
});

describe("report pieces", () => {
  it("writes a spread and a Markdown table", () => {
    expect(spreadText({ value: 0.9, min: 0.85, max: 1, perRound: [] })).toBe("0.900 (0.850–1.000)");
    expect(spreadText(undefined)).toBe("–");
    expect(table(["a", "b"], "lr", [["x", "1"]])).toEqual(["| a | b |", "|---|---:|", "| x | 1 |"]);
  });
});
