import { describe, expect, it } from "vitest";
import { checksBeforeSending, type TaskToCheck } from "./pre-send-checks";

const task: TaskToCheck = {
  angle: "front",
  category: "cultural_exterior",
  location: { lat: 43.7731, lng: 11.256, name: "Duomo" },
  window: { starts_at: "2026-11-27T08:00:00.000Z", ends_at: "2026-11-27T16:00:00.000Z" },
};
// 30 m due south of the target: facing north looks straight at it.
const south = { lat: 43.7731 - 30 / 111_320, lng: 11.256, accuracy_m: 5 };
const at = "2026-11-27T12:00:00.000Z";

describe("checksBeforeSending", () => {
  it("passes a photo taken close by, facing the target, inside the window", () => {
    const checks = checksBeforeSending(task, { position: south, heading_deg: 0, captured_at: at }, { timeZone: "Europe/Rome" });
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ["location_match", "passed"],
      ["angle_match", "passed"],
      ["window", "passed"],
    ]);
    expect(checks[2]?.message).toBe("The window is open until 17:00.");
  });

  it("fails with the server's instructions when too far, facing away, or outside the window", () => {
    const far = { lat: 43.7731 - 500 / 111_320, lng: 11.256, accuracy_m: 5 };
    const checks = checksBeforeSending(task, { position: far, heading_deg: 180, captured_at: "2026-11-27T20:00:00.000Z" }, { timeZone: "Europe/Rome" });
    expect(checks.map((c) => c.status)).toEqual(["failed", "failed", "failed"]);
    expect(checks[0]?.instruction).toMatch(/^Stand within 60 m of Duomo: you were (499|500)(\.\d)? m away\.$/);
    expect(checks[1]?.instruction).toMatch(/^Face the front of Duomo, to the north of where you stood/);
    expect(checks[2]?.instruction).toBe("Take the photo between 09:00 and 17:00 local time.");
  });

  it("does not judge what the phone did not measure", () => {
    const checks = checksBeforeSending({ ...task, window: null }, { position: null, heading_deg: null, captured_at: at });
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ["location_match", "not_evaluated"],
      ["angle_match", "not_evaluated"],
    ]);
    const noCompass = checksBeforeSending({ ...task, window: null }, { position: south, heading_deg: null, captured_at: at });
    expect(noCompass[1]?.message).toBe("The phone's compass is not available, so the direction is not checked here.");
  });
});
