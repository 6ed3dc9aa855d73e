import { describe, expect, it } from "vitest";
import { angleLabel, formatDistance, formatLocalStamp, formatLocalWindow, namedChecks, spokenDistance, zoneLabel } from "./task-format";

describe("task text", () => {
  it("formats distances as a sign would, and in words", () => {
    expect(formatDistance(240)).toBe("240 m");
    expect(formatDistance(999.6)).toBe("1000 m");
    expect(formatDistance(1234)).toBe("1.2 km");
    expect(formatDistance(14_400)).toBe("14 km");
    expect(spokenDistance(240)).toBe("240 metres");
    expect(spokenDistance(2000)).toBe("2 kilometres");
  });

  it("names angles and zones in words", () => {
    expect(angleLabel("parking_lot")).toBe("Parking lot");
    expect(angleLabel("front")).toBe("Front");
    expect(zoneLabel("Europe/Rome")).toBe("Rome time");
    expect(zoneLabel("America/New_York")).toBe("New York time");
    expect(zoneLabel("UTC")).toBe("UTC time");
  });

  it("reads the place's local times as written, with the weekday of that date", () => {
    expect(formatLocalStamp("2025-06-03 14:00")).toBe("Tue 3 Jun, 14:00");
    expect(formatLocalWindow("2025-06-01 18:00 – 21:00")).toBe("Sun 1 Jun, 18:00–21:00");
    expect(formatLocalStamp("soon")).toBe("soon");
  });

  it("lists checks in reading order, unknown ones last, never counting not-evaluated as passed", () => {
    const check = (status: string, passed: boolean) => ({ status, passed, score: passed ? 1 : 0, message: status, instruction: null });
    const checks = namedChecks({
      status: "approved",
      instructions: [],
      ai_checks: { obstruction: check("not_evaluated", false), new_check: check("passed", true), location_match: check("passed", true), angle_match: check("failed", false) },
    });
    expect(checks.map((c) => [c.label, c.outcome])).toEqual([
      ["Place", "passed"],
      ["Direction", "failed"],
      ["Clear view", "not_evaluated"],
      ["New check", "passed"],
    ]);
  });
});
