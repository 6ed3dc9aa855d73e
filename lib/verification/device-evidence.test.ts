import { describe, expect, it } from "vitest";
import { describeCaptureToUpload, describeDeviceDistance, measureDeviceEvidence, parseDeviceEvidence } from "./device-evidence";

const NOW = new Date("2026-11-27T15:00:00Z");

describe("parseDeviceEvidence", () => {
  it("reads position, capture time and heading", () => {
    const { evidence, errors } = parseDeviceEvidence(
      { device_position: "43.7705, 11.2575, 12.5", captured_at: "2026-11-27T14:32:05+01:00", heading_deg: "360" },
      NOW,
    );
    expect(errors).toEqual([]);
    expect(evidence).toEqual({ position: { lat: 43.7705, lng: 11.2575, accuracy_m: 12.5 }, captured_at: "2026-11-27T13:32:05.000Z", heading_deg: 0 });
  });

  it("takes absent and empty fields as no evidence", () => {
    expect(parseDeviceEvidence({ device_position: "", captured_at: undefined }, NOW)).toEqual({
      evidence: { position: null, captured_at: null, heading_deg: null },
      errors: [],
    });
  });

  it("refuses malformed, out-of-range and future values, naming the field", () => {
    const { errors } = parseDeviceEvidence({ device_position: "91,11,5", captured_at: "2026-11-28T15:00:00Z", heading_deg: "north" }, NOW);
    expect(errors.map((e) => e.pointer)).toEqual(["device_position", "captured_at", "heading_deg"]);
    expect(parseDeviceEvidence({ device_position: "43.7,11.2" }, NOW).errors[0]?.pointer).toBe("device_position");
    expect(parseDeviceEvidence({ captured_at: "yesterday" }, NOW).errors[0]?.pointer).toBe("captured_at");
  });
});

describe("measureDeviceEvidence", () => {
  it("measures device-to-EXIF distance and capture-to-upload time, EXIF time first", () => {
    const evidence = { position: { lat: 43.7705, lng: 11.2575, accuracy_m: 10 }, captured_at: "2026-11-27T14:00:00.000Z", heading_deg: null };
    const measured = measureDeviceEvidence({
      evidence,
      exifPosition: { lat: 43.7705, lng: 11.3735 },
      exifCapturedAt: "2026-11-27T14:50:00.000Z",
      receivedAt: NOW,
    });
    expect(measured.device_exif_distance_m).toBeGreaterThan(9_300);
    expect(measured.device_exif_distance_m).toBeLessThan(9_400);
    expect(measured.capture_to_upload_s).toBe(600);
    expect(measureDeviceEvidence({ evidence, exifPosition: null, exifCapturedAt: null, receivedAt: NOW })).toEqual({
      device_exif_distance_m: null,
      capture_to_upload_s: 3600,
    });
  });

  it("says the distance in plain words", () => {
    expect(describeDeviceDistance(9_312)).toBe("Phone reported 9.3 km from where the photo's GPS says");
    expect(describeDeviceDistance(31.6)).toBe("Phone reported 32 m from where the photo's GPS says");
    expect(describeDeviceDistance(null)).toBeNull();
    expect(describeCaptureToUpload(11_400)).toBe("Sent 3 h 10 min after it was taken");
    expect(describeCaptureToUpload(20)).toBe("Sent under a minute after it was taken");
    expect(describeCaptureToUpload(5 * 86_400)).toBe("Sent 5 days after it was taken");
    expect(describeCaptureToUpload(-600)).toMatch(/clock/);
  });
});
