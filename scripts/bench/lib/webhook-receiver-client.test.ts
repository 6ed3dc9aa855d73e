import { describe, expect, it } from "vitest";
import { checkReceiver, firstArrivals, receiverProblems, type ReceiverRecords } from "./webhook-receiver-client";

const records = (eventIds: string[], overrides: Partial<ReceiverRecords> = {}): ReceiverRecords => ({
  requests: eventIds.length,
  missingEventId: 0,
  sampled: 1,
  verified: 1,
  failures: 0,
  failureExamples: [],
  eventIds,
  arrivals: eventIds.map((_, i) => 100 + i),
  ...overrides,
});

describe("checking what the receiver saw against what was sent", () => {
  it("finds nothing wrong when every event arrived once, signed", () => {
    const check = checkReceiver(records(["a", "b"]), new Set(["a", "b"]));
    expect(check).toMatchObject({ arrived: 2, distinct: 2, missing: 0, unexpected: 0, duplicates: 0 });
    expect(receiverProblems(check)).toEqual([]);
  });

  it("names missing, unexpected and duplicate events and wrong signatures", () => {
    const check = checkReceiver(records(["a", "a", "x"], { sampled: 2, verified: 1, failureExamples: ["bad signature for a"] }), new Set(["a", "b"]));
    expect(receiverProblems(check)).toEqual([
      "1 events never arrived",
      "1 unexpected event ids",
      "1 duplicate deliveries",
      "1 of 2 sampled signatures wrong: bad signature for a",
    ]);
  });

  it("counts a pass where no signature was checked as a problem", () => {
    expect(receiverProblems(checkReceiver(records(["a"], { sampled: 0, verified: 0 }), new Set(["a"])))).toEqual(["no signature was checked"]);
  });

  it("keeps each event's first arrival", () => {
    expect([...firstArrivals(records(["a", "b", "a"]))]).toEqual([
      ["a", 100],
      ["b", 101],
    ]);
  });
});
