import { describe, expect, it } from "vitest";
import { EMPTY_EXIF, type ExifSummary } from "@/lib/photos/read-exif";
import { DEFAULT_QA_THRESHOLDS } from "@/lib/schemas/qa";
import { checkImage, distanceOutsideBounds, reasonsFrom, type ImageFacts, type MissionFacts } from "./checks";

// A ~550 m square in Florence.
const mission: MissionFacts = {
  bounds: {
    type: "Polygon",
    coordinates: [
      [
        [11.25, 43.77],
        [11.257, 43.77],
        [11.257, 43.775],
        [11.25, 43.775],
        [11.25, 43.77],
      ],
    ],
  },
  createdAt: new Date("2026-11-20T08:00:00Z"),
};
const receivedAt = new Date("2026-11-20T12:00:00Z");

const goodExif: ExifSummary = {
  ...EMPTY_EXIF,
  present: true,
  make: "Google",
  model: "Pixel 8",
  captured_at: "2026-11-20T11:00:00.000Z",
  captured_at_local: "2026-11-20T12:00:00",
  utc_offset: "+01:00",
  captured_at_source: "offset",
  gps: { lat: 43.772, lng: 11.253, altitude_m: 50, accuracy_m: 5, direction_deg: 90, direction_ref: "true" },
};

const good: ImageFacts = {
  decodeError: null,
  measurements: { width: 1600, height: 1200, sharpness: 500, brightness: 120, shadowsClipped: 0, highlightsClipped: 0, dhash: "0" },
  exif: goodExif,
  duplicate: null,
};

const verdict = (facts: ImageFacts, name: string, thresholds = DEFAULT_QA_THRESHOLDS) => {
  const found = checkImage(facts, mission, thresholds, receivedAt).find((c) => c.check === name);
  if (!found) throw new Error(`no ${name} check`);
  return found;
};

describe("checkImage", () => {
  it("passes every check for a good photo", () => {
    const checks = checkImage(good, mission, DEFAULT_QA_THRESHOLDS, receivedAt);
    expect(checks.map((c) => c.check)).toEqual([
      "decodable",
      "exif_present",
      "gps_present",
      "inside_bounds",
      "capture_time",
      "resolution",
      "sharpness",
      "exposure",
      "duplicate",
    ]);
    expect(checks.every((c) => c.passed)).toBe(true);
  });

  it("fails an undecodable image and does not pile up its consequences in the reasons", () => {
    const checks = checkImage({ ...good, decodeError: "premature end of data", measurements: null }, mission, DEFAULT_QA_THRESHOLDS, receivedAt);
    expect(checks.find((c) => c.check === "decodable")?.passed).toBe(false);
    expect(reasonsFrom(checks)).toEqual(["The image could not be decoded (premature end of data)."]);
  });

  it("fails missing EXIF and missing GPS", () => {
    expect(verdict({ ...good, exif: EMPTY_EXIF }, "exif_present").passed).toBe(false);
    const noGps = { ...good, exif: { ...goodExif, gps: null } };
    expect(verdict(noGps, "gps_present").passed).toBe(false);
    expect(verdict(noGps, "inside_bounds").passed).toBe(false);
    expect(reasonsFrom(checkImage(noGps, mission, DEFAULT_QA_THRESHOLDS, receivedAt))).toHaveLength(1);
  });

  it("measures how far outside the bounds a photo was taken, crediting its accuracy", () => {
    // ~80 m east of the east edge (1° of longitude ≈ 80.5 km at 43.77° N).
    const east = (accuracy: number) => ({
      ...good,
      exif: {
        ...goodExif,
        gps: { ...goodExif.gps, lat: 43.772, lng: 11.258, accuracy_m: accuracy, altitude_m: null, direction_deg: null, direction_ref: null },
      },
    });
    const far = verdict(east(5), "inside_bounds");
    expect(far.passed).toBe(false);
    expect(far.value).toBeGreaterThan(75);
    expect(far.value).toBeLessThan(85);
    expect(far.threshold).toBe(30);
    expect(verdict(east(60), "inside_bounds").passed).toBe(true);
    // Accuracy credit is capped.
    expect(verdict(east(5000), "inside_bounds", { ...DEFAULT_QA_THRESHOLDS, max_accuracy_m: 10 }).passed).toBe(false);
  });

  it("refuses photos taken before the mission or in the future, with slack for unknown offsets", () => {
    const at = (iso: string, source: ExifSummary["captured_at_source"] = "offset") => ({
      ...good,
      exif: { ...goodExif, captured_at: iso, captured_at_source: source },
    });
    expect(verdict(at("2026-11-20T07:50:00Z"), "capture_time").passed).toBe(true); // within 15 min tolerance
    expect(verdict(at("2026-11-20T07:40:00Z"), "capture_time").passed).toBe(false);
    expect(verdict(at("2026-11-20T12:10:00Z"), "capture_time").passed).toBe(false);
    expect(verdict(at("2026-11-20T12:10:00Z", "assumed_utc"), "capture_time").passed).toBe(true);
    expect(verdict(at("2020-01-01T00:00:00Z", "assumed_utc"), "capture_time").passed).toBe(false);
    expect(verdict({ ...good, exif: { ...goodExif, captured_at: null } }, "capture_time").passed).toBe(false);
  });

  it("checks resolution, sharpness and exposure against the thresholds", () => {
    const m = (patch: Partial<NonNullable<ImageFacts["measurements"]>>) => ({
      ...good,
      measurements: { ...(good.measurements as NonNullable<ImageFacts["measurements"]>), ...patch },
    });
    expect(verdict(m({ width: 640, height: 400 }), "resolution").passed).toBe(false);
    expect(verdict(m({ sharpness: 12.5 }), "sharpness")).toMatchObject({ passed: false, value: 12.5, threshold: 40 });
    expect(verdict(m({ brightness: 15 }), "exposure").message).toMatch(/too dark/);
    expect(verdict(m({ brightness: 240 }), "exposure").message).toMatch(/overexposed/);
    expect(verdict(m({ sharpness: 12.5 }), "sharpness", { ...DEFAULT_QA_THRESHOLDS, min_sharpness: 10 }).passed).toBe(true);
  });

  it("names the earlier photo a duplicate repeats", () => {
    const exact = verdict({ ...good, duplicate: { imageId: "img_1", kind: "exact", distance: 0 } }, "duplicate");
    expect(exact).toMatchObject({ passed: false, value: "img_1" });
    expect(exact.message).toMatch(/same photo/);
    expect(verdict({ ...good, duplicate: { imageId: "img_2", kind: "similar", distance: 3 } }, "duplicate").message).toMatch(/near-identical/);
  });
});

describe("distanceOutsideBounds", () => {
  it("is negative inside and grows outside", () => {
    expect(distanceOutsideBounds(mission.bounds, 11.253, 43.772)).toBeLessThan(0);
    const d = distanceOutsideBounds(mission.bounds, 11.253, 43.776); // ~111 m north
    expect(d).toBeGreaterThan(100);
    expect(d).toBeLessThan(120);
  });
});
