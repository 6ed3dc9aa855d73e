// Every code a check, a QA rule, the phone's checks before sending or the field page's transport
// can emit has an English sentence in messages/en/codes.json, and that sentence formats with the
// figures the code carries: a new code without its words fails here, not on a zoomer's screen.
// The codes are found two ways: every code literal in the modules that make them (so a branch no
// input below reaches is still covered), and the codes those modules return for a spread of inputs
// (so a code built at run time is too, with its real figures).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { checksBeforeSending, missionChecksBeforeSending, type PhotoToCheck, type TaskToCheck } from "@/lib/field/pre-send-checks";
import { problemCode, TRANSPORT_CODES } from "@/lib/field/transport";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { EMPTY_EXIF } from "@/lib/photos/read-exif";
import { QA_CHECKS, type QaCheck } from "@/lib/schemas/qa";
import { partnerAskedAgain, rejectedAtReview } from "@/lib/service/orders/retake-instructions";
import { checkImage } from "@/lib/service/qa/checks";
import { submissionReasonCodes } from "@/lib/service/qa/reason-codes";
import { checkAuthenticity, type AuthenticitySignal } from "@/lib/service/verification/authenticity";
import {
  checkAngle,
  checkLocation,
  checkQuality,
  checkTimeOfDay,
  runAnalysisChecks,
  verifyPhoto,
  type Analyser,
  type CheckResult,
} from "@/lib/service/verification/checks";
import { CROWD_BANDS, judgeCrowd, judgeObstruction } from "@/lib/service/verification/vision/vision-checks";
import { DEFAULT_QA_THRESHOLDS } from "@/lib/schemas/qa";
import { judgeExposure, judgeInsideBounds, judgeSharpness } from "@/lib/verification/image-quality";
import type { Localisable } from "@/lib/verification/place-checks";
import { CROWD_LEVELS } from "@/lib/orders/vocabulary";

const ROOT = join(import.meta.dirname, "../..");
const codes = JSON.parse(readFileSync(join(ROOT, "messages/en/codes.json"), "utf8")) as Record<string, Record<string, string>>;
const english = (code: string): string | undefined => {
  const [group = "", key = ""] = code.split(".");
  return codes[group]?.[key];
};

/** The modules that make coded sentences. */
const SOURCES = [
  "lib/verification/place-checks.ts",
  "lib/verification/time-of-day.ts",
  "lib/verification/image-quality.ts",
  "lib/service/qa/checks.ts",
  "lib/service/verification/checks.ts",
  "lib/service/verification/authenticity.ts",
  "lib/service/verification/vision/vision-checks.ts",
  "lib/field/pre-send-checks.ts",
  "lib/field/transport.ts",
  "lib/service/orders/retake-instructions.ts",
];
const GROUPS = [
  "location_match",
  "angle_match",
  "time_of_day",
  "quality",
  "obstruction",
  "minimum_crowd",
  "brand_match",
  "authenticity",
  "not_evaluated",
  "qa",
  "pre_send",
  "problem",
  "retake",
];
const LITERAL = new RegExp(`"((?:${GROUPS.join("|")})\\.[a-z_]+)"`, "g");

function literalCodes(): string[] {
  return [...new Set(SOURCES.flatMap((file) => [...readFileSync(join(ROOT, file), "utf8").matchAll(LITERAL)].map((m) => m[1] ?? "")))].sort();
}

/** Formats the code's English with its figures; the errors next-intl reports. */
function formatErrors(coded: Localisable): string[] {
  const errors: string[] = [];
  const t = createTranslator({ locale: "en", messages: { codes }, namespace: "codes", onError: (e) => errors.push(`${coded.code}: ${e.message}`) });
  // The catalogue's keys are only known at run time here.
  (t as unknown as (key: string, values: Record<string, string | number>) => string)(coded.code, coded.params);
  return errors;
}

function codesOf(result: CheckResult): Localisable[] {
  return [...(result.code ? [{ code: result.code, params: result.params ?? {} }] : []), ...(result.instruction_codes ?? [])];
}

const DUOMO = { lat: 43.7731, lng: 11.256, name: "Duomo di Firenze" };
const near = { lat: DUOMO.lat - 0.0003, lng: DUOMO.lng };
const ring: [number, number][] = [
  [11.25, 43.77],
  [11.26, 43.77],
  [11.26, 43.78],
  [11.25, 43.78],
  [11.25, 43.77],
];
const square: PolygonGeometry = { type: "Polygon", coordinates: [ring] };
const person = (x: number, h = 0.15) => ({ label: "person", score: 0.6, box: [x, 0.5, 0.05, h] as [number, number, number, number] });

/** What the checks say for a spread of inputs: passes, failures and the not-evaluated reasons. */
async function emitted(): Promise<Localisable[]> {
  const out: Localisable[] = [];
  const add = (...results: CheckResult[]) => out.push(...results.flatMap(codesOf));
  add(
    checkLocation({ photo: null, target: DUOMO, radiusM: 60 }),
    checkLocation({ photo: { ...near, accuracyM: 5 }, target: DUOMO, radiusM: 60 }),
    checkLocation({ photo: { lat: DUOMO.lat - 0.01, lng: DUOMO.lng, accuracyM: 5 }, target: DUOMO, radiusM: 60 }),
    checkAngle({ photo: null, target: DUOMO, angle: "front" }),
    checkAngle({ photo: null, target: DUOMO, angle: "overview" }),
    checkAngle({ photo: { ...near, directionDeg: null, directionRef: null, capturedAt: null }, target: DUOMO, angle: "front" }),
    checkAngle({ photo: { ...DUOMO, directionDeg: 0, directionRef: "true", capturedAt: null }, target: DUOMO, angle: "front" }),
    checkAngle({ photo: { ...near, directionDeg: 0, directionRef: "true", capturedAt: null }, target: DUOMO, angle: "front" }),
    checkAngle({ photo: { ...near, directionDeg: 180, directionRef: "true", capturedAt: null }, target: DUOMO, angle: "front" }),
    checkAngle({ photo: { ...near, directionDeg: 0, directionRef: "magnetic", capturedAt: null }, target: DUOMO, angle: "front" }),
  );
  const when = (iso: string, requirements: { timeOfDay?: "daylight" | "midday" | "evening"; timeWindow?: string }) =>
    checkTimeOfDay({ capturedAt: new Date(iso), ...DUOMO, timeZone: "Europe/Rome", ...requirements });
  add(
    checkTimeOfDay({ capturedAt: null, ...DUOMO, timeZone: "Europe/Rome", timeOfDay: "daylight" }),
    checkTimeOfDay({ capturedAt: new Date(), ...DUOMO, timeZone: "Europe/Rome" }),
    when("2026-11-24T23:00:00Z", { timeOfDay: "daylight" }),
    when("2026-11-24T07:00:00Z", { timeOfDay: "midday" }),
    when("2026-11-24T08:00:00Z", { timeOfDay: "evening" }),
    when("2026-11-24T08:00:00Z", { timeWindow: "18:00-21:00" }),
    checkTimeOfDay({ capturedAt: new Date("2026-06-21T10:00:00Z"), lat: 78.22, lng: 15.65, timeZone: "Arctic/Longyearbyen", timeOfDay: "evening" }),
  );
  const facts = {
    decodeError: null,
    measurements: { width: 300, height: 200, sharpness: 10, brightness: 10 },
    exif: EMPTY_EXIF,
    duplicate: { imageId: "img_1", kind: "similar" as const, distance: 2 },
  };
  const mission = { bounds: square, createdAt: new Date("2026-11-01T00:00:00Z") };
  const qa: QaCheck[] = [
    ...checkImage(facts as Parameters<typeof checkImage>[0], mission, DEFAULT_QA_THRESHOLDS, new Date()),
    ...checkImage(
      { ...facts, decodeError: "bad", measurements: null, duplicate: { imageId: "img_1", kind: "exact", distance: 0 } } as Parameters<typeof checkImage>[0],
      mission,
      DEFAULT_QA_THRESHOLDS,
      new Date(),
    ),
    ...checkImage(
      {
        ...facts,
        exif: {
          ...EMPTY_EXIF,
          present: true,
          captured_at: "2020-01-01T00:00:00Z",
          gps: { ...DUOMO, altitude_m: null, accuracy_m: null, direction_deg: null, direction_ref: null },
        },
        measurements: { width: 4000, height: 3000, sharpness: 90, brightness: 120 },
        duplicate: null,
      } as unknown as Parameters<typeof checkImage>[0],
      mission,
      DEFAULT_QA_THRESHOLDS,
      new Date(),
    ),
    ...checkImage(
      { ...facts, exif: { ...EMPTY_EXIF, present: true, captured_at: "2099-01-01T00:00:00Z" } } as unknown as Parameters<typeof checkImage>[0],
      mission,
      DEFAULT_QA_THRESHOLDS,
      new Date(),
    ),
    ...checkImage(
      { ...facts, exif: { ...EMPTY_EXIF, present: true, captured_at: new Date().toISOString() } } as unknown as Parameters<typeof checkImage>[0],
      mission,
      DEFAULT_QA_THRESHOLDS,
      new Date(),
    ),
    judgeSharpness(90, DEFAULT_QA_THRESHOLDS),
    judgeExposure(250, DEFAULT_QA_THRESHOLDS),
    judgeExposure(120, DEFAULT_QA_THRESHOLDS),
    judgeInsideBounds(square, null, DEFAULT_QA_THRESHOLDS),
    judgeInsideBounds(square, { lat: 43.775, lng: 11.255, accuracy_m: 5 }, DEFAULT_QA_THRESHOLDS),
    judgeInsideBounds(square, { lat: 43.7802, lng: 11.255, accuracy_m: 5 }, DEFAULT_QA_THRESHOLDS),
    judgeInsideBounds(square, { lat: 43.79, lng: 11.255, accuracy_m: 5 }, DEFAULT_QA_THRESHOLDS),
  ];
  out.push(...qa.flatMap((c) => (c.code ? [{ code: c.code, params: c.params ?? {} }] : [])));
  add(checkQuality([]), checkQuality(qa), checkQuality(qa.filter((c) => c.passed)));
  out.push(...submissionReasonCodes("rejected", [{ qa }, { qa }]));

  const obstruction = (v: ReturnType<typeof judgeObstruction>) => [...(v.coded ? [v.coded.message, ...v.coded.instructions] : [])];
  out.push(
    ...obstruction(judgeObstruction([], "front")),
    ...obstruction(judgeObstruction([], "overview")),
    ...obstruction(judgeObstruction([{ label: "truck", score: 0.7, box: [0.05, 0.2, 0.5, 0.8] }], "entrance")),
    ...obstruction(
      judgeObstruction(
        [
          { label: "car", score: 0.7, box: [0.5, 0.2, 0.5, 0.7] },
          { label: "bus", score: 0.7, box: [0.7, 0.2, 0.3, 0.7] },
        ],
        "front",
      ),
    ),
    ...obstruction(judgeObstruction([person(0.4, 0.9), person(0.5, 0.9)], "front")),
    ...obstruction(judgeObstruction([person(0.4, 0.9), person(0.5, 0.9)], "front", { crowdIsSubject: true })),
    ...obstruction(judgeObstruction([{ label: "umbrella", score: 0.7, box: [0.45, 0.2, 0.1, 0.5] }], "front")),
    ...obstruction(judgeCrowd([person(0.1)], "high")),
    ...obstruction(
      judgeCrowd(
        [0.1, 0.2, 0.3, 0.4].map((x) => person(x)),
        "moderate",
      ),
    ),
  );
  const image = Buffer.from([0xff, 0xd8]);
  const input = { image, checks: ["obstruction", "minimum_crowd", "brand_match"] as const, brand: "Acme", crowd: "moderate" as const };
  const say = (verdicts: Awaited<ReturnType<typeof runAnalysisChecks>>) => add(...Object.values(verdicts));
  const answering = (passed: boolean): Analyser => ({
    name: "stand-in",
    analyse: async () => ({ obstruction: { score: 1, passed }, minimum_crowd: { score: 1, passed }, brand_match: { score: 1, passed } }),
  });
  say(await runAnalysisChecks(null, { ...input, checks: [...input.checks] }));
  say(await runAnalysisChecks(answering(true), { ...input, checks: [...input.checks] }));
  say(await runAnalysisChecks(answering(false), { ...input, checks: [...input.checks] }));
  say(
    await runAnalysisChecks(
      { name: "reader", evaluates: { checks: ["brand_match"], what: "reads text" }, analyse: async () => ({}) },
      { ...input, checks: [...input.checks] },
    ),
  );
  say(await runAnalysisChecks({ name: "broken", analyse: async () => Promise.reject(new Error("down")) }, { ...input, checks: [...input.checks] }));
  say(await runAnalysisChecks({ name: "odd", analyse: async () => ({ obstruction: { score: 7, passed: true } }) }, { ...input, checks: [...input.checks] }));
  const verdict = await verifyPhoto({
    photo: { gps: null, capturedAt: null, receivedAt: new Date() } as Parameters<typeof verifyPhoto>[0]["photo"],
    target: DUOMO,
    category: "cultural_exterior",
    angle: "front",
    timeZone: "Europe/Rome",
    qaChecks: [],
    image: null,
  });
  add(...Object.values(verdict.ai_checks));
  out.push(...verdict.instruction_codes);
  const signals = {
    device: { ...near, accuracy_m: 5 },
    exif: { lat: 45, lng: 9 },
    capturedAt: new Date("2020-01-01T00:00:00Z"),
    receivedAt: new Date(),
    traces: { editor: "Photoshop", modified_before_capture_s: null, gps_clock_offset_h: null, maker_notes_missing: false, thumbnail_distance: null },
    seenElsewhere: { distance: 0, sameOrganisation: true },
  };
  add(
    checkAuthenticity(signals as Parameters<typeof checkAuthenticity>[0]),
    checkAuthenticity({
      ...signals,
      device: null,
      exif: null,
      capturedAt: null,
      traces: { ...signals.traces, editor: null },
      seenElsewhere: null,
    } as Parameters<typeof checkAuthenticity>[0]),
  );

  const task: TaskToCheck = {
    angle: "front",
    category: "cultural_exterior",
    location: { ...DUOMO, time_zone: "Europe/Rome" },
    window: { starts_at: "2026-11-24T17:00:00Z", ends_at: "2026-11-24T20:00:00Z" },
    time_of_day: { requirement: "daylight" },
    requirements: { time_window: "18:00-21:00" },
  };
  const photo = (over: Partial<PhotoToCheck> = {}): PhotoToCheck => ({
    evidence: { position: { ...near, accuracy_m: 5 }, heading_deg: null, captured_at: "2026-11-24T18:00:00Z" },
    reading: null,
    sameAs: null,
    ...over,
  });
  const reading = { exif: EMPTY_EXIF, quality: { sharpness: 10, brightness: 10 }, sha256: "ab" } as unknown as NonNullable<PhotoToCheck["reading"]>;
  const preSend = [
    ...checksBeforeSending(task, photo()),
    ...checksBeforeSending(task, photo({ evidence: { position: null, heading_deg: null, captured_at: "2026-11-24T10:00:00Z" }, reading })),
    ...checksBeforeSending(
      task,
      photo({ reading: { ...reading, quality: null } as PhotoToCheck["reading"], sameAs: { state: { phase: "waiting", attempts: 0, lastError: null } } }),
    ),
    ...checksBeforeSending(
      task,
      photo({
        evidence: { position: { ...near, accuracy_m: 5 }, heading_deg: 90, captured_at: "2026-11-24T18:00:00Z" },
        reading,
        sameAs: { state: { phase: "approved", submissionId: "s" } },
      }),
    ),
    ...missionChecksBeforeSending({ bounds: { type: "Polygon", coordinates: [ring] } }, photo({ reading })),
  ];
  out.push(...preSend.flatMap((c) => [c.coded.message, ...(c.coded.instruction ?? []), c.coded.note].filter((x): x is Localisable => x !== null)));
  out.push(...Object.values(TRANSPORT_CODES), problemCode(500, "not json"));
  out.push(rejectedAtReview("Taken somewhere else.").coded, partnerAskedAgain("A van hides the door.").coded);
  return out.filter((c) => c.code !== "text");
}

describe("server-made sentences as codes", () => {
  it("every code literal in the modules that make them has an English sentence", () => {
    const found = literalCodes();
    expect(found.length).toBeGreaterThan(60);
    expect(found.filter((code) => english(code) === undefined)).toEqual([]);
  });

  it("every code the checks emit has an English sentence that formats with the figures it carries", async () => {
    const all = await emitted();
    const names = new Set(all.map((c) => c.code));
    // The spread reaches every kind of check, not only a few.
    for (const group of GROUPS)
      expect(
        [...names].some((n) => n.startsWith(`${group}.`)),
        group,
      ).toBe(true);
    expect(all.filter((c) => english(c.code) === undefined).map((c) => c.code)).toEqual([]);
    expect(all.flatMap(formatErrors)).toEqual([]);
  });

  it("names every figure a page puts in words: objects in the way, crowd levels, signals, QA checks", () => {
    const objects = ["car", "truck", "bus", "train", "motorcycle", "bicycle", "person", "umbrella"];
    expect(objects.filter((o) => !codes.objects?.[o])).toEqual([]);
    const levels = [...CROWD_BANDS.map((b) => b.level), ...CROWD_LEVELS];
    expect(levels.filter((l) => !codes.crowd?.[l])).toEqual([]);
    const signals: AuthenticitySignal["signal"][] = ["device_position", "edit_traces", "capture_time", "seen_elsewhere"];
    expect(signals.filter((s) => !codes.signals?.[s])).toEqual([]);
    expect(QA_CHECKS.filter((c) => !codes.qa_checks?.[c])).toEqual([]);
  });

  it("says the field page's problems the API answers with", () => {
    const field = [
      "not_found",
      "mission_not_active",
      "assignment_not_available",
      "assignment_not_reserved",
      "reservation_expired",
      "too_many_reservations",
      "too_many_open_uploads",
      "upload_quota_exceeded",
      "take_the_task",
      "unsupported_image_type",
      "file_too_large",
      "too_many_pixels",
      "too_many_photos",
      "unreadable_image",
      "rate_limited",
    ];
    expect(field.filter((code) => english(`problem.${code}`) === undefined)).toEqual([]);
    expect(problemCode(409, JSON.stringify({ code: "reservation_expired", detail: "Your reservation ran out." }))).toEqual({
      code: "problem.reservation_expired",
      params: { status: 409 },
    });
  });
});
