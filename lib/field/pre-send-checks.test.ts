import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { readExif } from "@/lib/photos/read-exif";
import { photoFactsFromExif, verifyPhoto } from "@/lib/service/verification/checks";
import { corpusFile, HAS_CORPUS } from "@/lib/testing/corpus";
import { decodeWithSharp } from "@/lib/testing/decode-with-sharp";
import { DEFAULT_QA_THRESHOLDS } from "@/lib/schemas/qa";
import type { CaptureEvidence } from "./outbox-state";
import { checksBeforeSending, missionChecksBeforeSending, sameOutboxPhoto, type PhotoToCheck, type TaskToCheck } from "./pre-send-checks";
import { readPhoto, type PhotoReading } from "./read-photo";
import { EMPTY_EXIF } from "@/lib/photos/summarise-exif";

const task: TaskToCheck = {
  angle: "front",
  category: "cultural_exterior",
  location: { lat: 43.7731, lng: 11.256, name: "Duomo", time_zone: "Europe/Rome" },
  window: { starts_at: "2026-11-27T08:00:00.000Z", ends_at: "2026-11-27T16:00:00.000Z" },
  time_of_day: null,
};
// 30 m due south of the target: facing north looks straight at it.
const south = { lat: 43.7731 - 30 / 111_320, lng: 11.256, accuracy_m: 5 };
const at = "2026-11-27T12:00:00.000Z";
const sharpAndBright: PhotoReading = {
  format: { sendable: true, mime: "image/jpeg" },
  sha256: "ab".repeat(32),
  exif: EMPTY_EXIF,
  quality: { width: 4000, height: 3000, sharpness: 300, brightness: 120 },
};
const photo = (evidence: CaptureEvidence, reading: PhotoReading | null = sharpAndBright, sameAs: PhotoToCheck["sameAs"] = null): PhotoToCheck => ({
  evidence,
  reading,
  sameAs,
});
const statuses = (checks: { name: string; status: string }[]) => Object.fromEntries(checks.map((c) => [c.name, c.status]));

describe("checksBeforeSending (phone evidence, no EXIF)", () => {
  it("judges the order's local hours as the server does: 13:00 Rome time is outside 18:00-21:00", () => {
    // 12:00Z is 13:00 in Rome in November.
    const hours = { ...task, window: null, requirements: { time_window: "18:00-21:00" } };
    const [outside] = checksBeforeSending(hours, photo({ position: south, heading_deg: 0, captured_at: at })).filter((c) => c.name === "time_of_day");
    expect(outside?.status).toBe("failed");
    expect(outside?.instruction).toContain("18:00");
    const [inside] = checksBeforeSending(hours, photo({ position: south, heading_deg: 0, captured_at: "2026-11-27T18:30:00.000Z" })).filter(
      (c) => c.name === "time_of_day",
    );
    expect(inside?.status).toBe("passed");
  });

  it("passes a photo taken close by, facing the target, inside the window, sharp and well exposed", () => {
    const checks = checksBeforeSending(task, photo({ position: south, heading_deg: 0, captured_at: at }));
    expect(statuses(checks)).toEqual({
      location_match: "passed",
      angle_match: "passed",
      window: "passed",
      sharpness: "passed",
      exposure: "passed",
      duplicate: "passed",
    });
    expect(checks.find((c) => c.name === "window")?.message).toBe("Taken inside the window, which is open until 17:00.");
  });

  it("fails with the server's instructions when too far, facing away, at night, too dark, or already waiting", () => {
    const far = { lat: 43.7731 - 500 / 111_320, lng: 11.256, accuracy_m: 5 };
    const dark: PhotoReading = { ...sharpAndBright, quality: { width: 4000, height: 3000, sharpness: 300, brightness: 12 } };
    const checks = checksBeforeSending(
      { ...task, time_of_day: { requirement: "daylight" } },
      photo({ position: far, heading_deg: 180, captured_at: "2026-11-27T20:00:00.000Z" }, dark, { state: { phase: "waiting", attempts: 0, lastError: null } }),
    );
    expect(statuses(checks)).toEqual({
      location_match: "failed",
      angle_match: "failed",
      time_of_day: "failed",
      window: "failed",
      sharpness: "passed",
      exposure: "failed",
      duplicate: "failed",
    });
    const instruction = (name: string) => checks.find((c) => c.name === name)?.instruction;
    expect(instruction("location_match")).toMatch(/^Stand within 60 m of Duomo: you were (499|500)(\.\d)? m away\.$/);
    expect(instruction("angle_match")).toMatch(/^Face the front of Duomo, to the north of where you stood/);
    expect(instruction("time_of_day")).toMatch(/^Come back in daylight, between sunrise \(07:\d\d\) and sunset \(16:\d\d\) local time\.$/);
    expect(instruction("window")).toBe("Take the photo between 09:00 and 17:00 local time.");
    expect(instruction("exposure")).toBe("Mean brightness 12 is below 35: the photo is too dark.");
    expect(checks.find((c) => c.name === "duplicate")?.message).toBe("This photo is already waiting to be sent.");
  });

  it("does not judge what neither the photo nor the phone measured", () => {
    const checks = checksBeforeSending({ ...task, window: null }, photo({ position: null, heading_deg: null, captured_at: at }, null));
    expect(statuses(checks)).toEqual({ location_match: "not_evaluated", angle_match: "not_evaluated", sharpness: "not_evaluated", exposure: "not_evaluated" });
    const noCompass = checksBeforeSending({ ...task, window: null }, photo({ position: south, heading_deg: null, captured_at: at }));
    expect(noCompass.find((c) => c.name === "angle_match")?.message).toBe(
      "Neither the photo nor the phone's compass says which way you faced, so the direction is not checked here.",
    );
  });

  it("finds the same photo in the outbox by its SHA-256", () => {
    const entries = [{ sha256: "cd".repeat(32) }, { sha256: undefined }];
    expect(sameOutboxPhoto("cd".repeat(32), entries)).toBe(entries[0]);
    expect(sameOutboxPhoto("ef".repeat(32), entries)).toBeNull();
    expect(sameOutboxPhoto(undefined, entries)).toBeNull();
  });
});

describe("missionChecksBeforeSending", () => {
  const bounds = {
    type: "Polygon" as const,
    coordinates: [
      [
        [11.25, 43.77],
        [11.26, 43.77],
        [11.26, 43.775],
        [11.25, 43.775],
        [11.25, 43.77],
      ],
    ],
  };
  it("uses the service's mission-area rule: inside, within the tolerance, or too far", () => {
    const inside = missionChecksBeforeSending({ bounds }, photo({ position: { lat: 43.772, lng: 11.255, accuracy_m: 5 }, heading_deg: null, captured_at: at }));
    expect(statuses(inside)).toEqual({ inside_bounds: "passed", sharpness: "passed", exposure: "passed", duplicate: "passed" });
    const far = missionChecksBeforeSending({ bounds }, photo({ position: { lat: 43.79, lng: 11.255, accuracy_m: 5 }, heading_deg: null, captured_at: at }));
    expect(far[0]?.status).toBe("failed");
    expect(far[0]?.instruction).toMatch(/^Taken \d+(\.\d)? m outside the mission area \(30 m allowed\)\.$/);
    expect(far[0]?.message).toMatch(/Measured from this phone's position: the photo itself has no location/);
  });
});

// The same photos through the service's path (EXIF read from the file, verifyPhoto) and the phone's
// (the bytes read in the page, checksBeforeSending): the same verdict on each check.
describe.skipIf(!HAS_CORPUS)("the phone and the service judge real photos alike", () => {
  const files = ["jpg/gps/DSCN0010.jpg", "jpg/gps/DSCN0012.jpg", "jpg/gps/DSCN0021.jpg"];
  // Near the photos (43.467 N 11.885 E), 400 m north of them, and the three times of day.
  const targets = [
    { lat: 43.4672, lng: 11.8852, name: "Here" },
    { lat: 43.4672 + 400 / 111_320, lng: 11.8852, name: "Up the hill" },
  ];
  const cases = files.flatMap((file) =>
    targets.flatMap((target) => (["daylight", "midday", "evening"] as const).map((timeOfDay) => ({ file, target, timeOfDay }))),
  );

  it.each(cases)("$file, $target.name, $timeOfDay", async ({ file, target, timeOfDay }) => {
    const bytes = await readFile(corpusFile(file));
    const exif = await readExif(corpusFile(file));
    const server = await verifyPhoto({
      photo: photoFactsFromExif(exif, "Europe/Rome"),
      target,
      category: "cultural_exterior",
      angle: "overview",
      timeZone: "Europe/Rome",
      requirements: { timeOfDay },
      qaChecks: [],
    });
    const reading = await readPhoto(new Blob([new Uint8Array(bytes)]), { decode: decodeWithSharp });
    // The phone's own fix is 9 km off and its clock says now: the photo's EXIF must win.
    const evidence: CaptureEvidence = { position: { lat: 43.55, lng: 11.885, accuracy_m: 5 }, heading_deg: 90, captured_at: new Date().toISOString() };
    const phone = statuses(
      checksBeforeSending(
        {
          angle: "overview",
          category: "cultural_exterior",
          location: { ...target, time_zone: "Europe/Rome" },
          window: null,
          time_of_day: { requirement: timeOfDay },
        },
        photo(evidence, reading),
      ),
    );
    expect(phone.location_match).toBe(server.ai_checks.location_match.status);
    expect(phone.angle_match).toBe(server.ai_checks.angle_match.status);
    expect(phone.time_of_day).toBe(server.ai_checks.time_of_day.status);
  });

  it("a darkened copy of a corpus photo fails exposure on the phone with the service's sentence", async () => {
    const dark = await sharp(await readFile(corpusFile("jpg/gps/DSCN0010.jpg")))
      .linear(0.08, 0)
      .withMetadata()
      .jpeg()
      .toBuffer();
    const reading = await readPhoto(new Blob([new Uint8Array(dark)]), { decode: decodeWithSharp });
    const exposure = checksBeforeSending({ ...task, window: null }, photo({ position: south, heading_deg: 0, captured_at: at }, reading)).find(
      (c) => c.name === "exposure",
    );
    expect(exposure?.status).toBe("failed");
    expect(exposure?.instruction).toMatch(new RegExp(`^Mean brightness [\\d.]+ is below ${DEFAULT_QA_THRESHOLDS.min_brightness}: the photo is too dark\\.$`));
  });
});

describe("a HEIC the browser cannot decode", () => {
  it("is sendable: sharpness and brightness say the server will check them", () => {
    const heic: PhotoReading = { format: { sendable: true, mime: "image/heic" }, sha256: "cd".repeat(32), exif: EMPTY_EXIF, quality: null };
    const checks = checksBeforeSending(task, photo({ position: south, heading_deg: 0, captured_at: at }, heic));
    for (const name of ["sharpness", "exposure"]) {
      const check = checks.find((c) => c.name === name);
      expect(check?.status).toBe("not_evaluated");
      expect(check?.message).toMatch(/HEIC.*server will check sharpness and brightness/);
      expect(check?.coded.message?.code).toBe("pre_send.heic_server_checks");
    }
    // A JPEG this phone could not open keeps the general sentence.
    const jpeg = checksBeforeSending(
      task,
      photo({ position: south, heading_deg: 0, captured_at: at }, { ...heic, format: { sendable: true, mime: "image/jpeg" } }),
    );
    expect(jpeg.find((c) => c.name === "sharpness")?.coded.message?.code).toBe("pre_send.cannot_measure");
  });
});
