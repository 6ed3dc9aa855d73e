import { describe, expect, it } from "vitest";
import { qaFigure } from "./qa-check-display";
import type { QaCheck } from "./types";

const passed = (check: QaCheck["check"], value: QaCheck["value"], threshold: QaCheck["threshold"] = null): QaCheck => ({ check, passed: true, value, threshold, message: "" });
const shown = (c: QaCheck) => {
  const f = qaFigure(c);
  return [f.measured, f.threshold].filter(Boolean).join(" · ");
};

describe("qaFigure", () => {
  it("words passed checks with their units, never as raw values", () => {
    expect(shown(passed("decodable", true))).toBe("the pixels decode");
    expect(shown(passed("exif_present", true))).toBe("camera metadata found");
    expect(shown(passed("gps_present", "45.4642,9.19"))).toBe("45.46420° N, 9.19000° E");
    expect(shown(passed("inside_bounds", 0, 31.4))).toBe("inside the area · 31.4 m allowed");
    expect(shown(passed("inside_bounds", 12.25, 31.4))).toBe("12.3 m outside the area · 31.4 m allowed");
    expect(shown(passed("resolution", 3000, 480))).toBe("shorter side 3000 px · at least 480 px");
    expect(shown(passed("sharpness", 152.34, 40))).toBe("sharpness 152.3 · at least 40");
    expect(shown(passed("exposure", 120, "35–225"))).toBe("mean brightness 120 of 255 · 35–225 allowed");
    expect(shown(passed("duplicate", null, 4))).toBe("no earlier photo alike · a repeat differs in 4 of 64 hash bits or fewer");
  });

  it("never shows the raw forms the API records", () => {
    const raw = [passed("decodable", true), passed("exif_present", true), passed("inside_bounds", 0, 31.4), passed("duplicate", null, 4), passed("capture_time", "2026-11-27T10:00:00.000Z")].map(shown);
    for (const text of raw) {
      expect(text).not.toMatch(/^(true|false)$/);
      expect(text).not.toContain("—");
      expect(text).not.toMatch(/^\d+(\.\d+)? \/ /);
    }
  });

  it("words a capture time against the side of the window it missed", () => {
    const early: QaCheck = { check: "capture_time", passed: false, value: "2026-01-01T10:00:00Z", threshold: "2026-11-27T09:00:00.000Z", message: "" };
    expect(qaFigure(early).measured).toMatch(/^taken 1 Jan/);
    expect(qaFigure(early).threshold).toMatch(/^not before 27 Nov/);
    const late: QaCheck = { ...early, value: "2027-01-01T10:00:00Z" };
    expect(qaFigure(late).threshold).toMatch(/^not after 27 Nov/);
  });

  it("says what a failed check found", () => {
    expect(shown({ check: "duplicate", passed: false, value: "img_abc", threshold: 4, message: "" })).toMatch(/^repeats img_abc/);
    expect(shown({ check: "gps_present", passed: false, value: null, threshold: null, message: "" })).toBe("no position recorded");
  });
});
