import { describe, expect, it } from "vitest";
import { outboxEntry } from "./outbox-fixture";
import { tusMetadata } from "./tus-transport";

const entry = outboxEntry({
  evidence: { position: { lat: 43.7733, lng: 11.2562, accuracy_m: 8.4 }, heading_deg: 359.7, captured_at: "2026-11-27T14:32:00.000Z" },
});

describe("tusMetadata", () => {
  it("names the target, angle, file and the phone's evidence with the keys DESIGN.md gives", () => {
    expect(tusMetadata(entry)).toEqual({
      target: "mis_1",
      angle: "front",
      note: "north door",
      filename: "IMG_1.jpg",
      device_position: "43.7733,11.2562,8",
      heading_deg: "0",
      captured_at: "2026-11-27T14:32:00.000Z",
    });
  });

  it("sends a task's photo with its assignment id and without what the phone did not have", () => {
    const task = {
      ...entry,
      target: { kind: "task" as const, id: "asg_9", title: "x" },
      evidence: { position: null, heading_deg: null, captured_at: entry.evidence.captured_at },
    };
    expect(tusMetadata(task)).toEqual({ target: "asg_9", filename: "IMG_1.jpg", captured_at: "2026-11-27T14:32:00.000Z" });
  });
});
