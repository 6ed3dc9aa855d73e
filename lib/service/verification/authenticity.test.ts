import { describe, expect, it } from "vitest";
import { NO_TRACES } from "@/lib/photos/edit-traces";
import { checkAuthenticity, failedSignals, type AuthenticitySignals } from "./authenticity";

const receivedAt = new Date("2026-11-27T12:00:00Z");
const base: AuthenticitySignals = {
  device: { lat: 43.7731, lng: 11.256, accuracy_m: 12 },
  exif: { lat: 43.7732, lng: 11.256 },
  capturedAt: new Date("2026-11-27T11:58:00Z"),
  receivedAt,
  traces: NO_TRACES,
  seenElsewhere: null,
};
const signal = (result: ReturnType<typeof checkAuthenticity>, name: string) =>
  (result.extra?.signals as { signal: string; status: string; value: unknown }[]).find((s) => s.signal === name);

describe("checkAuthenticity", () => {
  it("passes a photo whose phone position, file, time and picture all agree", () => {
    const result = checkAuthenticity(base);
    expect(result).toMatchObject({ check: "authenticity", status: "passed", passed: true, score: 1, value: 0, threshold: 0 });
    expect(signal(result, "device_position")).toMatchObject({ status: "passed", threshold: 112 });
  });

  it("fails a phone position beyond 100 m plus its accuracy from the EXIF position", () => {
    const near = checkAuthenticity({ ...base, device: { lat: 43.7731 + 105 / 111_320, lng: 11.256, accuracy_m: 12 } });
    expect(near.status).toBe("passed");
    const far = checkAuthenticity({ ...base, device: { lat: 43.7732 - 9300 / 111_320, lng: 11.256, accuracy_m: 12 } });
    expect(far).toMatchObject({ status: "failed", passed: false, score: 0, value: 1, instruction: null });
    expect(far.message).toMatch(/^Held for review: The phone reported its position 9\.3 km from where the photo's GPS says/);
    // A vague indoor fix is credited only up to 200 m.
    expect(signal(checkAuthenticity({ ...base, device: { lat: 43.7731, lng: 11.256, accuracy_m: 5000 } }), "device_position")?.["threshold" as "value"]).toBe(
      300,
    );
  });

  it("records a missing phone position or capture time as not evaluated, never as passed or failed", () => {
    const result = checkAuthenticity({ ...base, device: null, capturedAt: null });
    expect(result.status).toBe("passed");
    expect(signal(result, "device_position")?.status).toBe("not_evaluated");
    expect(signal(result, "capture_time")?.status).toBe("not_evaluated");
  });

  it("fails edit traces: an editor, a modify time before capture, distant GPS clock, missing maker notes, another thumbnail", () => {
    const cases: [Partial<typeof NO_TRACES>, RegExp][] = [
      [{ editor: "ExifTool (“Image::ExifTool 12.57”)" }, /written by ExifTool/],
      [{ modified_before_capture_s: 3 * 365 * 86400 }, /last changed 1095 days before it was taken/],
      [{ gps_clock_offset_h: 49 }, /GPS clock and camera clock are 2 days apart/],
      [{ maker_notes_missing: true }, /maker's own data/],
      [{ thumbnail_distance: 30 }, /preview stored inside the file shows a different picture/],
    ];
    for (const [traces, message] of cases) {
      const result = checkAuthenticity({ ...base, traces: { ...NO_TRACES, ...traces } });
      expect(result.status).toBe("failed");
      expect(result.message).toMatch(message);
    }
    // Within the tolerances: a GPS date a day out (the corpus' Nikon), 4 bits between thumbnail and image.
    expect(checkAuthenticity({ ...base, traces: { ...NO_TRACES, gps_clock_offset_h: 22, thumbnail_distance: 4 } }).status).toBe("passed");
  });

  it("fails a photo taken more than a day before it was sent, or after it arrived", () => {
    expect(checkAuthenticity({ ...base, capturedAt: new Date(receivedAt.getTime() - 25 * 3_600_000) }).message).toMatch(/taken 25 h before it was sent/);
    expect(checkAuthenticity({ ...base, capturedAt: new Date(receivedAt.getTime() - 23 * 3_600_000) }).status).toBe("passed");
    expect(signal(checkAuthenticity({ ...base, capturedAt: new Date(receivedAt.getTime() - 20_000) }), "capture_time")).toMatchObject({
      message: "Sent under a minute after it was taken.",
    });
    expect(checkAuthenticity({ ...base, capturedAt: new Date(receivedAt.getTime() + 20 * 60_000) }).message).toMatch(/20 min after it arrived/);
  });

  it("fails a picture seen elsewhere in the service, naming no other organisation's photo", () => {
    const result = checkAuthenticity({ ...base, seenElsewhere: { distance: 2, sameOrganisation: false } });
    expect(result.status).toBe("failed");
    expect(result.message).toMatch(/already sent to the service \(nearly identical\)/);
    expect(JSON.stringify(result)).not.toMatch(/img_/);
  });
});

describe("failedSignals", () => {
  it("gives the failed signals of a recorded check with their codes, none for a passed check or a record without signals", () => {
    const held = checkAuthenticity({
      ...base,
      traces: { ...NO_TRACES, editor: "Windows Photo Gallery (“Microsoft Windows Photo Gallery 6.0.6001.18000”)" },
      seenElsewhere: { distance: 0, sameOrganisation: true },
    });
    expect(failedSignals(held).map((s) => [s.signal, s.code])).toEqual([
      ["edit_traces", "edit_traces.found"],
      ["seen_elsewhere", "seen_elsewhere.seen"],
    ]);
    expect(failedSignals(held)[0]?.params).toMatchObject({ traces: "editor" });
    expect(failedSignals(checkAuthenticity(base))).toEqual([]);
    expect(failedSignals(undefined)).toEqual([]);
    expect(failedSignals({ ...held, extra: { signals: "not a list" } })).toEqual([]);
  });
});
