import { describe, expect, it } from "vitest";
import { splitAtStamps, summariseStages, type EventStamps, type StageDefinition } from "./event-stamps";

type Event = "received" | "approved";
const STAGES: StageDefinition<"intake" | "qa" | "send", Event>[] = [
  { stage: "intake", until: "received", label: "start → received" },
  { stage: "qa", until: "approved", label: "→ approved" },
  { stage: "send", until: null, label: "→ arrival" },
];

describe("splitting a latency at the service's event stamps", () => {
  const stamps: EventStamps<Event> = new Map([
    ["m1", { received: 1_010, approved: 1_060 }],
    ["m2", { received: 2_020 }],
  ]);

  it("gives each stage the time from the previous stamp to its own, the last to the sample's end", () => {
    expect(splitAtStamps({ missionId: "m1", startedAt: 1_000, endedAt: 1_100 }, stamps, STAGES)).toEqual({ intake: 10, qa: 50, send: 40 });
  });

  it("leaves out a sample with a missing stamp, and counts it", () => {
    expect(splitAtStamps({ missionId: "m2", startedAt: 2_000, endedAt: 2_100 }, stamps, STAGES)).toBeNull();
    const summary = summariseStages(
      [
        { missionId: "m1", startedAt: 1_000, endedAt: 1_100 },
        { missionId: "m2", startedAt: 2_000, endedAt: 2_100 },
        { missionId: "m3", startedAt: 3_000, endedAt: 3_100 },
      ],
      stamps,
      STAGES,
      (n) => n,
    );
    expect(summary.missing).toBe(2);
    expect(summary.stages.map((s) => [s.stage, s.ms.n, s.ms.p50])).toEqual([
      ["intake", 1, 10],
      ["qa", 1, 50],
      ["send", 1, 40],
    ]);
  });
});
