import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { EMPTY_EXIF, type ExifSummary } from "@/lib/photos/read-exif";
import type { QaCheck } from "@/lib/schemas/qa";
import {
  checkAngle,
  checkLocation,
  checkQuality,
  checkTimeOfDay,
  FACING_ANGLES,
  photoFactsFromExif,
  runAnalysisChecks,
  verifyPhoto,
  VERIFICATION_CHECKS,
  VERIFICATION_THRESHOLDS,
  type Analyser,
  type AnalysisInput,
  type CheckResult,
  type PhotoFacts,
  type VerifyPhotoInput,
} from "./checks";
import { HttpAnalyser } from "./http-analyser";

// One degree of latitude on the mean sphere, metres (see lib/geo/bearing.ts).
const M_PER_DEG = 111_195.08;
type Point = { lat: number; lng: number };
const moved = (p: Point, northM: number, eastM = 0): Point => ({
  lat: p.lat + northM / M_PER_DEG,
  lng: p.lng + eastM / (M_PER_DEG * Math.cos((p.lat * Math.PI) / 180)),
});

const DUOMO = { lat: 43.7731, lng: 11.256, name: "Duomo di Firenze" };
const FLATIRON = { lat: 40.7411, lng: -73.9897, name: "Flatiron Building" }; // New York: declination ≈ −12.5°
const OPERA_HOUSE = { lat: -33.8568, lng: 151.2153, name: "Sydney Opera House" };

/** Every not-evaluated result must look like one: never passed, no score, no instruction. */
function expectNotEvaluated(result: CheckResult | undefined, message?: RegExp) {
  expect(result).toBeDefined();
  if (!result) return;
  expect(result).toMatchObject({ status: "not_evaluated", passed: false, score: 0, instruction: null });
  if (message) expect(result.message).toMatch(message);
}

describe("checkLocation", () => {
  it("passes at the point with a full score", () => {
    const r = checkLocation({ photo: { ...DUOMO, accuracyM: 5 }, target: DUOMO, radiusM: 60 });
    expect(r).toMatchObject({ check: "location_match", status: "passed", passed: true, score: 1, value: 0, threshold: 65, instruction: null });
  });

  it("passes exactly at the allowance (score 0.5) and fails just over it", () => {
    const photo = { ...moved(DUOMO, 55.6), accuracyM: null };
    const at = checkLocation({ photo, target: DUOMO, radiusM: 55.6 });
    expect(at).toMatchObject({ status: "passed", value: 55.6, threshold: 55.6, score: 0.5 });
    const over = checkLocation({ photo, target: DUOMO, radiusM: 55.5 });
    expect(over).toMatchObject({ status: "failed", passed: false, value: 55.6, threshold: 55.5 });
    expect(over.score).toBeCloseTo(0.499, 3);
    expect(over.instruction).toBe("Stand within 55.5 m of Duomo di Firenze: you were 55.6 m away.");
  });

  it("falls to 0 at twice the allowance and stays there", () => {
    expect(checkLocation({ photo: { ...moved(DUOMO, 120), accuracyM: null }, target: DUOMO, radiusM: 60 }).score).toBe(0);
    expect(checkLocation({ photo: { ...moved(DUOMO, 500), accuracyM: null }, target: DUOMO, radiusM: 60 }).score).toBe(0);
    expect(checkLocation({ photo: { ...moved(DUOMO, 30), accuracyM: null }, target: DUOMO, radiusM: 60 }).score).toBe(0.75);
  });

  it("credits the GPS accuracy, up to the cap", () => {
    const photo = moved(DUOMO, 100);
    expect(checkLocation({ photo: { ...photo, accuracyM: 45 }, target: DUOMO, radiusM: 60 })).toMatchObject({ status: "passed", threshold: 105 });
    // A ±200 m fix is credited 50 m only: 60 + 50 = 110 m.
    const far = checkLocation({ photo: { ...moved(DUOMO, 120), accuracyM: 200 }, target: DUOMO, radiusM: 60 });
    expect(far).toMatchObject({ status: "failed", threshold: 110 });
    expect(far.message).toContain("110 m allowed (60 m + 50 m GPS accuracy)");
    expect(checkLocation({ photo: { ...photo, accuracyM: 200 }, target: DUOMO, radiusM: 60, maxAccuracyCreditM: 20 })).toMatchObject({
      status: "failed",
      threshold: 80,
    });
  });

  it("tells the zoomer how far off they were", () => {
    const r = checkLocation({ photo: { ...moved(DUOMO, -240), accuracyM: null }, target: DUOMO, radiusM: 60 });
    expect(r.status).toBe("failed");
    expect(r.instruction).toBe("Stand within 60 m of Duomo di Firenze: you were 240 m away.");
  });

  it("fails without GPS and asks for location to be turned on", () => {
    const r = checkLocation({ photo: null, target: DUOMO, radiusM: 60 });
    expect(r).toMatchObject({ status: "failed", passed: false, score: 0, value: null });
    expect(r.instruction).toMatch(/Turn on location/);
  });
});

describe("checkAngle", () => {
  const when = new Date("2026-11-24T12:00:00Z");
  const shot = (from: Point, directionDeg: number | null, directionRef: "true" | "magnetic" | null = "true", capturedAt: Date | null = when) => ({
    ...from,
    directionDeg,
    directionRef,
    capturedAt,
  });
  // 100 m due south of the target: the bearing to it is exactly 0°.
  const south = moved(DUOMO, -100);

  it("passes across north: heading 5° with the target at 355°", () => {
    const camera = moved(DUOMO, -100, 8.75); // a little east, so the target is just west of north
    const r = checkAngle({ photo: shot(camera, 5), target: DUOMO, angle: "front" });
    expect(r.extra?.bearing_deg).toBeCloseTo(355, 0);
    expect(r).toMatchObject({ status: "passed", passed: true, value: 10, threshold: 35 });
    expect(r.score).toBeCloseTo(1 - 10 / 70, 3);
  });

  it("passes exactly at the tolerance either side of north and fails just past it", () => {
    expect(checkAngle({ photo: shot(south, 35), target: DUOMO, angle: "entrance" })).toMatchObject({ status: "passed", value: 35, score: 0.5 });
    expect(checkAngle({ photo: shot(south, 325), target: DUOMO, angle: "entrance" })).toMatchObject({ status: "passed", value: 35, score: 0.5 });
    const over = checkAngle({ photo: shot(south, 35.1), target: DUOMO, angle: "entrance" });
    expect(over).toMatchObject({ status: "failed", passed: false, value: 35.1 });
    expect(checkAngle({ photo: shot(south, 70), target: DUOMO, angle: "entrance" }).score).toBe(0);
    expect(checkAngle({ photo: shot(south, 180), target: DUOMO, angle: "entrance" }).score).toBe(0);
  });

  it("says which way to face when it fails", () => {
    const r = checkAngle({ photo: shot(south, 95), target: DUOMO, angle: "entrance" });
    expect(r.instruction).toBe("Face the entrance of Duomo di Firenze, to the north of where you stood: you were pointing 95° away.");
  });

  it("carries its message and instruction as stable codes with figures, for pages in the reader's language", () => {
    const r = checkAngle({ photo: shot(south, 95), target: DUOMO, angle: "entrance" });
    expect(r).toMatchObject({ code: "angle_match.beyond", params: { place: "Duomo di Firenze", off_deg: 95, allowed_deg: 35 } });
    expect(r.instruction_codes).toEqual([{ code: "angle_match.face", params: { angle: "entrance", place: "Duomo di Firenze", direction: "N", off_deg: 95 } }]);
    // A passed check has nothing to do differently, in words or in codes.
    const ok = checkAngle({ photo: shot(south, 10), target: DUOMO, angle: "entrance" });
    expect(ok).toMatchObject({ code: "angle_match.within", instruction: null });
    expect(ok.instruction_codes).toBeUndefined();
    expect(checkLocation({ photo: { ...moved(DUOMO, -240), accuracyM: null }, target: DUOMO, radiusM: 60 }).instruction_codes).toEqual([
      { code: "location_match.stand_within", params: { place: "Duomo di Firenze", radius_m: 60, distance_m: 240 } },
    ]);
  });

  it("corrects a magnetic direction to true north, which can change the verdict", () => {
    // New York, declination ≈ −12.5°: a compass reading of 45° magnetic is ≈ 32.5° true.
    const camera = moved(FLATIRON, -100);
    const magnetic = checkAngle({ photo: shot(camera, 45, "magnetic"), target: FLATIRON, angle: "front" });
    const asTrue = checkAngle({ photo: shot(camera, 45, "true"), target: FLATIRON, angle: "front" });
    expect(magnetic.status).toBe("passed");
    expect(magnetic.value).toBeCloseTo(32.5, 0);
    expect(magnetic.extra?.declination_deg).toBeCloseTo(-12.5, 0);
    expect(magnetic.message).toMatch(/compass 45° magnetic, declination -12\.\d°/);
    expect(asTrue).toMatchObject({ status: "failed", value: 45 });

    // Florence, declination ≈ +4°: 33° magnetic is ≈ 37° true, now outside the tolerance.
    expect(checkAngle({ photo: shot(south, 33, "true"), target: DUOMO, angle: "front" }).status).toBe("passed");
    expect(checkAngle({ photo: shot(south, 33, "magnetic"), target: DUOMO, angle: "front" }).status).toBe("failed");
  });

  it("reads a direction without a reference as true (the EXIF default)", () => {
    expect(checkAngle({ photo: shot(south, 33, null), target: DUOMO, angle: "front" })).toMatchObject({ status: "passed", value: 33 });
  });

  it("works in the southern hemisphere", () => {
    // From the southern end of the Harbour Bridge the Opera House lies to the north-east (≈ 66°).
    const bridge = { lat: -33.8587, lng: 151.2101 };
    const facing = checkAngle({ photo: shot(bridge, 80, "magnetic"), target: OPERA_HOUSE, angle: "front" }); // Sydney: +12.8° → ≈ 92.8° true
    expect(facing.status).toBe("passed");
    const away = checkAngle({ photo: shot(bridge, 246), target: OPERA_HOUSE, angle: "front" });
    expect(away.status).toBe("failed");
    expect(away.instruction).toMatch(/^Face the front of Sydney Opera House, to the north-east of where you stood: you were pointing 1[78]\d(\.\d)?° away\.$/);
  });

  it("does not judge angles that do not face a point", () => {
    for (const angle of ["interior", "overview", "outdoor_seating", "facilities", "parking_lot"] as const) {
      expectNotEvaluated(checkAngle({ photo: shot(south, 180), target: DUOMO, angle }), /does not face one point/);
    }
    expect(FACING_ANGLES).toEqual(["front", "entrance", "storefront", "promotional_display", "water_quality_flag", "entrance_queue"]);
  });

  it("does not judge — and never passes — a photo without direction or position", () => {
    expectNotEvaluated(checkAngle({ photo: shot(south, null), target: DUOMO, angle: "front" }), /no compass direction/);
    expectNotEvaluated(checkAngle({ photo: null, target: DUOMO, angle: "front" }), /no GPS position/);
  });

  it("does not judge a camera standing on the target", () => {
    expectNotEvaluated(checkAngle({ photo: shot(moved(DUOMO, 3), 180), target: DUOMO, angle: "front" }), /too close/);
    expect(checkAngle({ photo: shot(moved(DUOMO, -6), 0), target: DUOMO, angle: "front" }).status).toBe("passed");
  });

  it("dates a magnetic correction by the upload time when the photo has none, and gives up past the model", () => {
    const noDate = shot(south, 33, "magnetic", null);
    expectNotEvaluated(checkAngle({ photo: noDate, target: DUOMO, angle: "front" }), /no date/);
    expect(checkAngle({ photo: noDate, target: DUOMO, angle: "front", fallbackDate: when }).status).toBe("failed");
    expectNotEvaluated(
      checkAngle({ photo: shot(south, 33, "magnetic", new Date("2031-06-01T00:00:00Z")), target: DUOMO, angle: "front" }),
      /could not be corrected/,
    );
  });
});

describe("checkTimeOfDay", () => {
  const florence = { lat: DUOMO.lat, lng: DUOMO.lng, timeZone: "Europe/Rome" };
  const sydney = { lat: OPERA_HOUSE.lat, lng: OPERA_HOUSE.lng, timeZone: "Australia/Sydney" };

  it("is not evaluated when the order asks for no time", () => {
    expectNotEvaluated(checkTimeOfDay({ ...florence, capturedAt: new Date("2026-11-24T12:00:00Z") }));
  });

  it("fails a night photo asked in daylight, and says when daylight is", () => {
    const night = checkTimeOfDay({ ...florence, capturedAt: new Date("2026-11-24T21:00:00Z"), timeOfDay: "daylight" });
    expect(night).toMatchObject({ status: "failed", passed: false, score: 0 });
    expect(night.value).toBeLessThan(-30);
    // Florence on 24 November 2026: sunrise 07:20, sunset 16:42 CET.
    expect(night.instruction).toBe("Come back in daylight, between sunrise (07:20) and sunset (16:42) local time.");
    expect(checkTimeOfDay({ ...florence, capturedAt: new Date("2026-11-24T11:00:00Z"), timeOfDay: "daylight" })).toMatchObject({
      status: "passed",
      score: 1,
      instruction: null,
    });
  });

  it("has the seasons the other way round in the southern hemisphere", () => {
    // 19:30 in Sydney: still light in December (sunset ≈ 20:05 AEDT), dark in June (≈ 16:55 AEST).
    expect(checkTimeOfDay({ ...sydney, capturedAt: new Date("2026-12-21T08:30:00Z"), timeOfDay: "daylight" }).status).toBe("passed");
    expect(checkTimeOfDay({ ...sydney, capturedAt: new Date("2026-06-21T09:30:00Z"), timeOfDay: "daylight" }).status).toBe("failed");
  });

  it("takes midday as within 2 h of solar noon", () => {
    // Solar noon in Florence on 21 June 2026: 11:16:47 UT (13:16 CEST).
    expect(checkTimeOfDay({ ...florence, capturedAt: new Date("2026-06-21T13:00:00Z"), timeOfDay: "midday" }).status).toBe("passed");
    expect(checkTimeOfDay({ ...florence, capturedAt: new Date("2026-06-21T09:20:00Z"), timeOfDay: "midday" }).status).toBe("passed");
    const late = checkTimeOfDay({ ...florence, capturedAt: new Date("2026-06-21T13:30:00Z"), timeOfDay: "midday" });
    expect(late.status).toBe("failed");
    expect(late.instruction).toBe("Come back around midday, between 11:16 and 15:16 local time (solar noon is at 13:16).");
  });

  it("takes evening as from 1 h before sunset to 2 h after", () => {
    // Sunset in Florence on 21 June 2026: 19:00:32 UT (21:00 CEST), so evening is 20:00–23:00.
    const at = (iso: string) => checkTimeOfDay({ ...florence, capturedAt: new Date(iso), timeOfDay: "evening" });
    expect(at("2026-06-21T20:30:00Z").status).toBe("passed"); // 22:30
    expect(at("2026-06-21T18:01:00Z").status).toBe("passed"); // 20:01
    expect(at("2026-06-21T17:59:00Z").status).toBe("failed"); // 19:59
    expect(at("2026-06-21T21:01:00Z").status).toBe("failed"); // 23:01
    const early = at("2026-06-21T16:00:00Z");
    expect(early.status).toBe("failed");
    expect(early.instruction).toBe("Come back in the evening, between 20:00 and 23:00 local time (sunset is at 21:00).");
    expect(early.extra?.sunset).toMatch(/^2026-06-21T19:00:/);
  });

  it("fails an evening order where the sun does not set", () => {
    const r = checkTimeOfDay({ lat: 78.22, lng: 15.65, timeZone: "Arctic/Longyearbyen", capturedAt: new Date("2026-06-21T20:00:00Z"), timeOfDay: "evening" });
    expect(r.status).toBe("failed");
    expect(r.message).toMatch(/does not set/);
  });

  it("reads the window in the location's zone, not in UTC", () => {
    // 17:30 UTC is 19:30 in Rome in June.
    const r = checkTimeOfDay({ ...florence, capturedAt: new Date("2026-06-21T17:30:00Z"), timeWindow: "18:00-21:00" });
    expect(r).toMatchObject({ status: "passed", value: "19:30" });
    const early = checkTimeOfDay({ ...florence, capturedAt: new Date("2026-06-21T15:30:00Z"), timeWindow: "18:00-21:00" });
    expect(early).toMatchObject({ status: "failed", value: "17:30", instruction: "Come back between 18:00 and 21:00 local time." });
  });

  it("accepts a window past midnight: start inclusive, end exclusive", () => {
    const at = (iso: string) => checkTimeOfDay({ ...florence, capturedAt: new Date(iso), timeWindow: "22:00-02:00" }).status;
    // Rome in November is UTC+1.
    expect(at("2026-11-24T21:00:00Z")).toBe("passed"); // 22:00
    expect(at("2026-11-25T00:30:00Z")).toBe("passed"); // 01:30 the next day
    expect(at("2026-11-25T00:59:00Z")).toBe("passed"); // 01:59
    expect(at("2026-11-25T01:00:00Z")).toBe("failed"); // 02:00
    expect(at("2026-11-24T20:59:00Z")).toBe("failed"); // 21:59
    expect(at("2026-11-24T11:00:00Z")).toBe("failed"); // 12:00
  });

  it("needs both the sun and the window when both are asked", () => {
    const both = { ...florence, timeOfDay: "evening" as const, timeWindow: "18:00-21:00" };
    expect(checkTimeOfDay({ ...both, capturedAt: new Date("2026-06-21T18:30:00Z") }).status).toBe("passed"); // 20:30: evening and in the window
    const r = checkTimeOfDay({ ...both, capturedAt: new Date("2026-06-21T20:00:00Z") }); // 22:00: evening, after the window
    expect(r.status).toBe("failed");
    expect(r.instruction).toBe("Come back between 18:00 and 21:00 local time.");
    expect(r.value).toBeTypeOf("number"); // the sun's altitude, the window's local time in extra
    expect(r.extra?.local_time).toBe("22:00");
  });

  it("fails a photo without a capture time, with an instruction", () => {
    const r = checkTimeOfDay({ ...florence, capturedAt: null, timeOfDay: "evening", timeWindow: "18:00-21:00" });
    expect(r).toMatchObject({ status: "failed", passed: false, value: null });
    expect(r.instruction).toBe("Take the photo with the phone's camera app, so it records the time, in the evening and between 18:00 and 21:00 local time.");
  });

  it("refuses a malformed window", () => {
    expect(() => checkTimeOfDay({ ...florence, capturedAt: new Date(), timeWindow: "18-21" })).toThrow(RangeError);
  });
});

const qa = (failed: Partial<Record<QaCheck["check"], string>> = {}): QaCheck[] =>
  (["decodable", "exif_present", "gps_present", "inside_bounds", "capture_time", "resolution", "sharpness", "exposure", "duplicate"] as const).map((check) => ({
    check,
    passed: failed[check] === undefined,
    value: null,
    threshold: null,
    message: failed[check] ?? `${check} ok`,
  }));

describe("checkQuality", () => {
  it("passes when every QA check passed", () => {
    expect(checkQuality(qa())).toMatchObject({ status: "passed", passed: true, score: 1, value: null, instruction: null });
  });

  it("scores the fraction passed and names the failures", () => {
    const r = checkQuality(qa({ sharpness: "The photo is blurry.", exposure: "The photo is too dark." }));
    expect(r).toMatchObject({ status: "failed", passed: false, value: "sharpness, exposure" });
    expect(r.score).toBeCloseTo(7 / 9, 3);
    expect(r.instruction).toBe("The photo is blurry. The photo is too dark.");
  });

  it("does not repeat the consequences of a missing GPS fix", () => {
    const r = checkQuality(qa({ gps_present: "Turn on location.", inside_bounds: "Cannot tell where." }));
    expect(r.instruction).toBe("Turn on location.");
  });

  it("is not evaluated (and not passed) with no QA checks", () => {
    expectNotEvaluated(checkQuality([]));
  });
});

const IMAGE = Buffer.from("not really a jpeg, but bytes all the same");

function fakeAnalyser(analyse: Analyser["analyse"]): Analyser & { calls: AnalysisInput[] } {
  const calls: AnalysisInput[] = [];
  return {
    name: "fake",
    calls,
    analyse: (input) => {
      calls.push(input);
      return analyse(input);
    },
  };
}

describe("runAnalysisChecks", () => {
  it("records every asked check as not evaluated without an analyser", async () => {
    const out = await runAnalysisChecks(null, { image: IMAGE, checks: ["obstruction", "brand_match"], brand: "Gelateria" });
    expect(Object.keys(out)).toEqual(["obstruction", "brand_match"]);
    expectNotEvaluated(out.obstruction, /No image analyser is configured/);
    expectNotEvaluated(out.brand_match, /"Gelateria"/);
  });

  it("does not call the analyser when nothing is asked", async () => {
    const analyser = fakeAnalyser(async () => ({}));
    expect(await runAnalysisChecks(analyser, { image: IMAGE, checks: [] })).toEqual({});
    expect(analyser.calls).toHaveLength(0);
  });

  it("records the analyser's verdicts, values and extra fields", async () => {
    const analyser = fakeAnalyser(async () => ({
      obstruction: { score: 0.93, passed: true, extra: { model: "v2" } },
      minimum_crowd: { score: 0.2, passed: false, value: 3, extra: { people: 3 } },
      brand_match: { score: 0.8, passed: true, value: { box: [1, 2, 3, 4] } },
    }));
    const out = await runAnalysisChecks(analyser, { image: IMAGE, checks: ["obstruction", "minimum_crowd", "brand_match"], crowd: "high", brand: "Gelateria" });
    expect(out.obstruction).toMatchObject({ status: "passed", passed: true, score: 0.93, value: null, extra: { model: "v2", analyser: "fake" } });
    expect(out.minimum_crowd).toMatchObject({ status: "failed", passed: false, score: 0.2, value: 3, threshold: "high", extra: { people: 3 } });
    expect(out.minimum_crowd?.instruction).toBe("Come back when the place is busier: the order asks for a high crowd.");
    expect(out.brand_match).toMatchObject({ status: "passed", value: '{"box":[1,2,3,4]}', threshold: "Gelateria" });
    expect(analyser.calls[0]?.image).toBe(IMAGE);
  });

  it("records a throwing analyser's reason, and never a pass", async () => {
    const out = await runAnalysisChecks(
      fakeAnalyser(async () => {
        throw new Error("GPU out of memory");
      }),
      { image: IMAGE, checks: ["obstruction"] },
    );
    expectNotEvaluated(out.obstruction, /fake analyser failed \(GPU out of memory\)/);
  });

  it("gives up on a slow analyser, and aborts its signal", async () => {
    const analyser = fakeAnalyser(
      (input) => new Promise((resolve) => input.signal?.addEventListener("abort", () => resolve({ obstruction: { score: 1, passed: true } }))),
    );
    const out = await runAnalysisChecks(analyser, { image: IMAGE, checks: ["obstruction"] }, { timeoutMs: 50 });
    expectNotEvaluated(out.obstruction, /gave no answer within 50 ms/);
    expect(analyser.calls[0]?.signal?.aborted).toBe(true);
  });

  it("does not evaluate a check the analyser left out or answered with nonsense", async () => {
    const out = await runAnalysisChecks(
      fakeAnalyser(async () => ({ obstruction: { score: 1.5, passed: true }, minimum_crowd: { score: Number.NaN, passed: true } })),
      { image: IMAGE, checks: ["obstruction", "minimum_crowd", "brand_match"], brand: "X", crowd: "low" },
    );
    expectNotEvaluated(out.obstruction, /not a score from 0 to 1/);
    expectNotEvaluated(out.minimum_crowd, /not a score from 0 to 1/);
    expectNotEvaluated(out.brand_match, /gave no brand_match result/);
  });
});

describe("HttpAnalyser against a local HTTP server", () => {
  let server: Server | null = null;
  afterEach(async () => {
    const s = server;
    server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  });

  async function serve(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<string> {
    const s = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (body += chunk));
      req.on("end", () => handler(req, body, res));
    });
    server = s;
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", () => resolve()));
    const { port } = s.address() as AddressInfo;
    return `http://127.0.0.1:${port}/analyse`;
  }

  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(value));
  };

  it("posts the image as base64 with the checks, and keeps the extra fields of each result", async () => {
    const seen: { method?: string; auth?: string; body?: unknown } = {};
    const url = await serve((req, body, res) => {
      seen.method = req.method;
      seen.auth = req.headers.authorization;
      seen.body = JSON.parse(body);
      json(res, 200, {
        model: "detector-3",
        results: {
          obstruction: { score: 0.1, passed: false, value: "scaffolding", boxes: [[10, 20, 30, 40]] },
          brand_match: { score: 0.97, passed: true, text: "GELATERIA" },
        },
      });
    });
    const analyser = new HttpAnalyser({ url, name: "vision", headers: { authorization: "Bearer t0ken" } });
    const out = await runAnalysisChecks(analyser, { image: IMAGE, checks: ["obstruction", "brand_match"], brand: "Gelateria" });

    expect(seen).toEqual({
      method: "POST",
      auth: "Bearer t0ken",
      body: { image_base64: IMAGE.toString("base64"), checks: ["obstruction", "brand_match"], brand: "Gelateria" },
    });
    expect(out.obstruction).toMatchObject({ status: "failed", score: 0.1, value: "scaffolding", extra: { boxes: [[10, 20, 30, 40]], analyser: "vision" } });
    expect(out.obstruction?.instruction).toBe("Find a spot with a clear view: something was in the way.");
    expect(out.brand_match).toMatchObject({ status: "passed", score: 0.97, extra: { text: "GELATERIA" } });
  });

  it("turns an error status into not evaluated, with the status", async () => {
    const url = await serve((_req, _body, res) => json(res, 503, { error: "busy" }));
    const out = await runAnalysisChecks(new HttpAnalyser({ url, name: "vision" }), { image: IMAGE, checks: ["obstruction"] });
    expectNotEvaluated(out.obstruction, /vision analyser failed \(the analysis service answered 503\)/);
  });

  it("rejects an answer that does not match the schema", async () => {
    const url = await serve((_req, _body, res) => json(res, 200, { results: { obstruction: { score: 2, passed: "yes" } } }));
    const out = await runAnalysisChecks(new HttpAnalyser({ url, name: "vision" }), { image: IMAGE, checks: ["obstruction"] });
    expectNotEvaluated(out.obstruction, /not understood \(results\.obstruction\.score/);
  });

  it("rejects a body that is not JSON", async () => {
    const url = await serve((_req, _body, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>proxy error</html>");
    });
    const out = await runAnalysisChecks(new HttpAnalyser({ url, name: "vision" }), { image: IMAGE, checks: ["obstruction"] });
    expectNotEvaluated(out.obstruction, /was not JSON/);
  });

  it("times out on its own", async () => {
    const url = await serve(() => {
      // Never answers; the server's close at the end of the test drops the socket.
    });
    const out = await runAnalysisChecks(new HttpAnalyser({ url, name: "vision", timeoutMs: 100 }), { image: IMAGE, checks: ["obstruction"] });
    expectNotEvaluated(out.obstruction, /no answer within 100 ms/);
    server?.closeAllConnections();
  });

  it("does not follow redirects", async () => {
    const url = await serve((_req, _body, res) => {
      res.writeHead(307, { location: "http://127.0.0.1:9/elsewhere" });
      res.end();
    });
    const out = await runAnalysisChecks(new HttpAnalyser({ url, name: "vision" }), { image: IMAGE, checks: ["obstruction"] });
    expectNotEvaluated(out.obstruction, /vision analyser failed/);
  });
});

describe("photoFactsFromExif", () => {
  const exif = (over: Partial<ExifSummary>): ExifSummary => ({ ...EMPTY_EXIF, present: true, ...over });

  it("reads a local time without offset in the location's zone", () => {
    const facts = photoFactsFromExif(
      exif({ captured_at: "2026-06-21T20:30:15.000Z", captured_at_local: "2026-06-21T20:30:15", captured_at_source: "assumed_utc" }),
      "Europe/Rome",
    );
    expect(facts.capturedAt?.toISOString()).toBe("2026-06-21T18:30:15.000Z");
  });

  it("keeps a time with a known offset, and maps the GPS fields", () => {
    const facts = photoFactsFromExif(
      exif({
        captured_at: "2026-06-21T18:30:00.000Z",
        captured_at_source: "offset",
        gps: { lat: 43.77, lng: 11.25, altitude_m: 50, accuracy_m: 8, direction_deg: 12.5, direction_ref: "magnetic" },
      }),
      "Europe/Rome",
      new Date("2026-06-22T00:00:00Z"),
    );
    expect(facts).toEqual({
      gps: { lat: 43.77, lng: 11.25, accuracyM: 8, directionDeg: 12.5, directionRef: "magnetic" },
      capturedAt: new Date("2026-06-21T18:30:00.000Z"),
      receivedAt: new Date("2026-06-22T00:00:00Z"),
    });
  });

  it("gives no GPS and no time for a photo without EXIF", () => {
    expect(photoFactsFromExif(EMPTY_EXIF, "Europe/Rome")).toEqual({ gps: null, capturedAt: null });
  });
});

describe("verifyPhoto", () => {
  const camera = moved(DUOMO, -40); // 40 m south of the Duomo, looking north at it
  const goodPhoto: PhotoFacts = {
    gps: { ...camera, accuracyM: 6, directionDeg: 2, directionRef: "true" },
    capturedAt: new Date("2026-06-21T18:30:00Z"), // 20:30 CEST
  };
  const base: VerifyPhotoInput = {
    photo: goodPhoto,
    target: DUOMO,
    category: "cultural_exterior",
    angle: "front",
    timeZone: "Europe/Rome",
    requirements: { timeOfDay: "evening", timeWindow: "18:00-21:00" },
    qaChecks: qa(),
    image: IMAGE,
  };

  it("approves a photo that passes every evaluated check, and records every check", async () => {
    const result = await verifyPhoto(base);
    expect(result.status).toBe("approved");
    expect(result.instructions).toEqual([]);
    expect(Object.keys(result.ai_checks)).toEqual([...VERIFICATION_CHECKS]);
    for (const check of ["location_match", "angle_match", "time_of_day", "quality"] as const) expect(result.ai_checks[check].status).toBe("passed");
    // No analyser: obstruction is recorded as not evaluated, never as passed, and does not reject.
    expectNotEvaluated(result.ai_checks.obstruction, /No image analyser/);
    expectNotEvaluated(result.ai_checks.minimum_crowd, /does not ask/);
  });

  it("rejects with one instruction per failed check", async () => {
    const result = await verifyPhoto({
      ...base,
      photo: { gps: { ...moved(DUOMO, -240), accuracyM: null, directionDeg: 95, directionRef: "true" }, capturedAt: new Date("2026-06-21T12:00:00Z") },
    });
    expect(result.status).toBe("rejected");
    expect(result.instructions).toEqual([
      "Stand within 60 m of Duomo di Firenze: you were 240 m away.",
      "Face the front of Duomo di Firenze, to the north of where you stood: you were pointing 95° away.",
      expect.stringMatching(/^Come back in the evening, between .* Come back between 18:00 and 21:00 local time\.$/),
    ]);
  });

  it("gives the same instructions as codes, the time of day's two conditions as two", async () => {
    const result = await verifyPhoto({
      ...base,
      photo: { gps: { ...moved(DUOMO, -240), accuracyM: null, directionDeg: 95, directionRef: "true" }, capturedAt: new Date("2026-06-21T12:00:00Z") },
    });
    expect(result.instruction_codes.map((c) => c.code)).toEqual([
      "location_match.stand_within",
      "angle_match.face",
      "time_of_day.come_back_evening",
      "time_of_day.come_back_window",
    ]);
    expect(result.instruction_codes[3]).toEqual({ code: "time_of_day.come_back_window", params: { from: "18:00", to: "21:00" } });
  });

  it("rejects a photo without EXIF, and does not pretend its angle passed", async () => {
    const result = await verifyPhoto({
      ...base,
      photo: { gps: null, capturedAt: null },
      qaChecks: qa({ exif_present: "No EXIF.", gps_present: "No GPS.", inside_bounds: "?", capture_time: "No time." }),
    });
    expect(result.status).toBe("rejected");
    expect(result.ai_checks.location_match.status).toBe("failed");
    expectNotEvaluated(result.ai_checks.angle_match);
    expect(result.ai_checks.time_of_day.status).toBe("failed");
    expect(result.ai_checks.quality.status).toBe("failed");
  });

  it("approves without an angle verdict when the EXIF has no compass direction", async () => {
    const result = await verifyPhoto({ ...base, photo: { ...goodPhoto, gps: { ...camera, accuracyM: 6, directionDeg: null, directionRef: null } } });
    expect(result.status).toBe("approved");
    expectNotEvaluated(result.ai_checks.angle_match);
  });

  it("ignores the time when the order asks for none, and rejects when it was asked and missed", async () => {
    const noon = { ...base, photo: { ...goodPhoto, capturedAt: new Date("2026-06-21T10:00:00Z") } };
    expect((await verifyPhoto({ ...noon, requirements: {} })).status).toBe("approved");
    expect((await verifyPhoto(noon)).status).toBe("rejected");
  });

  it("uses the category's radius, which the caller may override", async () => {
    const onTheBeach = { ...base, photo: { ...goodPhoto, gps: { ...moved(DUOMO, -120), accuracyM: null, directionDeg: 0, directionRef: "true" as const } } };
    expect(VERIFICATION_THRESHOLDS.beach_facility_status.locationRadiusM).toBe(150);
    expect((await verifyPhoto({ ...onTheBeach, category: "beach_facility_status" })).status).toBe("approved");
    expect((await verifyPhoto({ ...onTheBeach, category: "cultural_exterior" })).status).toBe("rejected");
    expect((await verifyPhoto({ ...onTheBeach, category: "cultural_exterior", thresholds: { locationRadiusM: 130 } })).status).toBe("approved");
  });

  it("rejects on a failed analysis check, but not on one the analyser could not evaluate", async () => {
    const crowdAndBrand = { ...base, requirements: { minimumCrowd: "moderate" as const, brand: "Gelateria" } };
    const failing = fakeAnalyser(async () => ({
      obstruction: { score: 0.9, passed: true },
      minimum_crowd: { score: 0.1, passed: false },
      brand_match: { score: 0.9, passed: true },
    }));
    const rejected = await verifyPhoto({ ...crowdAndBrand, analyser: failing });
    expect(rejected.status).toBe("rejected");
    expect(rejected.instructions).toEqual(["Come back when the place is busier: the order asks for a moderate crowd."]);
    expect(failing.calls[0]).toMatchObject({ checks: ["obstruction", "minimum_crowd", "brand_match"], crowd: "moderate", brand: "Gelateria" });

    const broken = fakeAnalyser(async () => {
      throw new Error("down");
    });
    const approved = await verifyPhoto({ ...crowdAndBrand, analyser: broken });
    expect(approved.status).toBe("approved");
    for (const check of ["obstruction", "minimum_crowd", "brand_match"] as const) expectNotEvaluated(approved.ai_checks[check], /failed \(down\)/);
  });

  it("does not evaluate the analysis checks when the image bytes are missing", async () => {
    const analyser = fakeAnalyser(async () => ({ obstruction: { score: 1, passed: true } }));
    const result = await verifyPhoto({ ...base, image: null, analyser });
    expectNotEvaluated(result.ai_checks.obstruction, /not available/);
    expect(analyser.calls).toHaveLength(0);
  });

  it("rejects a photo whose QA was not recorded: quality is never assumed", async () => {
    const result = await verifyPhoto({ ...base, qaChecks: [] });
    expect(result.status).toBe("rejected");
    expectNotEvaluated(result.ai_checks.quality);
  });
});
