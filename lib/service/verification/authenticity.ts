/**
 * The `authenticity` check: is this photo what it claims to be — taken where and when its EXIF
 * says, by the phone that sent it, for this task? A pure judgement of signals gathered elsewhere
 * (./assess-authenticity.ts): the phone's own position at capture against the EXIF position, the
 * file's edit traces (lib/photos/edit-traces.ts), the capture time against the upload time, and
 * the same picture seen before in the service. Any suspicious signal fails the check, and a photo
 * failing it is held for a person to review — never delivered, never retaken automatically.
 */
import { z } from "zod";
import { distanceM } from "@/lib/geo/bearing";
import type { EditTraces } from "@/lib/photos/edit-traces";
import { judged, round1, type CheckResult } from "@/lib/verification/place-checks";

export interface AuthenticityThresholds {
  /** How far the phone's reported position may be from the EXIF position, metres, before its accuracy credit. */
  deviceDistanceM: number;
  /** The largest reported phone accuracy added to that distance, metres. */
  maxDeviceAccuracyCreditM: number;
  /** How long before its upload a photo may have been taken, hours. */
  maxCaptureAgeH: number;
  /** How far after its upload a capture time may claim to be (a fast clock), minutes. */
  maxFutureCaptureMin: number;
  /** How far the GPS receiver's clock may be from the camera's clock, hours. */
  maxGpsClockOffsetH: number;
  /** Difference-hash bits (of 64) beyond which the embedded thumbnail shows another picture. */
  maxThumbnailDistance: number;
  /** Difference-hash bits at or below which another photo in the service is the same picture. */
  duplicateMaxDistance: number;
}

export const AUTHENTICITY_THRESHOLDS: AuthenticityThresholds = {
  // Phone GPS and the browser's geolocation are each good to 5–20 m outdoors and disagree by a few
  // tens of metres at worst (a camera holding an older fix); 100 m is well beyond that and well
  // within any relocation worth faking.
  deviceDistanceM: 100,
  // Indoors the browser may report 100–200 m; a claimed accuracy worse than 200 m is not credited.
  maxDeviceAccuracyCreditM: 200,
  // Order photos are taken for a task and sent at once, or from the outbox when signal returns:
  // a day covers a phone left offline overnight.
  maxCaptureAgeH: 24,
  // The field evidence allows the same 10 minutes of clock skew.
  maxFutureCaptureMin: 10,
  // A camera's local time read without its UTC offset is up to 14 h off, and some cameras (the
  // corpus' Nikon P6000) stamp the GPS date a day out: 48 h tolerates both; a retimed file is
  // usually months or years apart.
  maxGpsClockOffsetH: 48,
  // Untouched camera files measure 1–4 bits between thumbnail and image (the corpus' Nikon and
  // Canon files); a different picture measures 25–40.
  maxThumbnailDistance: 16,
  // QA's near-duplicate distance (lib/schemas/qa.ts duplicate_max_distance). Different demo photos
  // measured 8–40 bits apart (median 26, 780 pairs); a near match only counts with the same
  // capture time (./assess-authenticity.ts), so a recurring order's new shot of the same view passes.
  duplicateMaxDistance: 4,
};

export interface AuthenticitySignals {
  /** Where the phone said it was when the photo was taken (browser geolocation). */
  device: { lat: number; lng: number; accuracy_m: number } | null;
  /** Where the photo's EXIF GPS says it was taken. */
  exif: { lat: number; lng: number } | null;
  /** The EXIF capture time, else the phone's. */
  capturedAt: Date | null;
  receivedAt: Date;
  traces: EditTraces;
  /** The nearest same picture elsewhere in the service, if any (never its id: it may be another organisation's). */
  seenElsewhere: { distance: number; sameOrganisation: boolean } | null;
}

export interface AuthenticitySignal {
  signal: "device_position" | "edit_traces" | "capture_time" | "seen_elsewhere";
  /** "passed" | "failed" | "not_evaluated" (no device position, no capture time). */
  status: CheckResult["status"];
  value: number | string | null;
  threshold: number | string | null;
  /** For the reviewer, in plain words (English, for integrators). */
  message: string;
  /** The message as a stable code and its figures, for a page in the reader's language (orders.signalText.<code>). */
  code: string;
  params: Record<string, string | number>;
}

const km = (m: number) => (m >= 1000 ? `${(m / 1000).toFixed(1)} km` : `${Math.round(m)} m`);

function hoursText(h: number): string {
  if (h >= 48) return `${Math.round(h / 24)} days`;
  if (h >= 1) return `${round1(h)} h`;
  return h * 60 < 1 ? "under a minute" : `${Math.round(h * 60)} min`;
}

function devicePosition(s: AuthenticitySignals, t: AuthenticityThresholds): AuthenticitySignal {
  if (!s.device)
    return {
      signal: "device_position",
      status: "not_evaluated",
      value: null,
      threshold: null,
      message: "The phone did not send its own position with the photo.",
      code: "device_position.no_device",
      params: {},
    };
  if (!s.exif)
    return {
      signal: "device_position",
      status: "not_evaluated",
      value: null,
      threshold: null,
      message: "The photo has no GPS position to compare with the phone's.",
      code: "device_position.no_exif",
      params: {},
    };
  const distance = round1(distanceM(s.device, s.exif));
  const limit = t.deviceDistanceM + Math.min(s.device.accuracy_m, t.maxDeviceAccuracyCreditM);
  const ok = distance <= limit;
  return {
    signal: "device_position",
    status: ok ? "passed" : "failed",
    value: distance,
    threshold: limit,
    message: ok
      ? `The phone was ${km(distance)} from where the photo's GPS says (within ${km(limit)}).`
      : `The phone reported its position ${km(distance)} from where the photo's GPS says it was taken (more than ${km(limit)}): the photo's location may have been changed.`,
    code: ok ? "device_position.near" : "device_position.far",
    params: { distance_m: distance, limit_m: limit },
  };
}

function editTraces(s: AuthenticitySignals, t: AuthenticityThresholds): AuthenticitySignal {
  const tr = s.traces;
  const found: string[] = [];
  const codes: string[] = [];
  const params: Record<string, string | number> = {};
  if (tr.editor) {
    found.push(`the file was written by ${tr.editor}`);
    codes.push("editor");
    params.editor = tr.editor;
  }
  if (tr.modified_before_capture_s !== null) {
    found.push(`it says it was last changed ${hoursText(tr.modified_before_capture_s / 3600)} before it was taken`);
    codes.push("modified_before");
    params.modified_h = tr.modified_before_capture_s / 3600;
  }
  if (tr.gps_clock_offset_h !== null && tr.gps_clock_offset_h > t.maxGpsClockOffsetH) {
    found.push(`its GPS clock and camera clock are ${hoursText(tr.gps_clock_offset_h)} apart`);
    codes.push("gps_clock");
    params.gps_h = tr.gps_clock_offset_h;
  }
  if (tr.maker_notes_missing) {
    found.push("the camera maker's own data, which this make always writes, is missing");
    codes.push("maker_notes");
  }
  if (tr.thumbnail_distance !== null && tr.thumbnail_distance > t.maxThumbnailDistance) {
    found.push("the small preview stored inside the file shows a different picture");
    codes.push("thumbnail");
  }
  return {
    signal: "edit_traces",
    status: found.length === 0 ? "passed" : "failed",
    value: found.length,
    threshold: 0,
    message: found.length === 0 ? "No signs that the file was edited after it was taken." : `Signs of editing: ${found.join("; ")}.`,
    code: found.length === 0 ? "edit_traces.none" : "edit_traces.found",
    params: found.length === 0 ? {} : { traces: codes.join(","), ...params },
  };
}

function captureTime(s: AuthenticitySignals, t: AuthenticityThresholds): AuthenticitySignal {
  if (!s.capturedAt)
    return {
      signal: "capture_time",
      status: "not_evaluated",
      value: null,
      threshold: null,
      message: "The photo does not say when it was taken.",
      code: "capture_time.unknown",
      params: {},
    };
  const exactH = (s.receivedAt.getTime() - s.capturedAt.getTime()) / 3_600_000;
  const ageH = round1(exactH);
  const threshold = `−${t.maxFutureCaptureMin} min to ${t.maxCaptureAgeH} h`;
  if (exactH * 60 < -t.maxFutureCaptureMin)
    return {
      signal: "capture_time",
      status: "failed",
      value: ageH,
      threshold,
      message: `It says it was taken ${hoursText(-exactH)} after it arrived: the time in the file is wrong.`,
      code: "capture_time.future",
      params: { hours: -exactH },
    };
  if (exactH > t.maxCaptureAgeH)
    return {
      signal: "capture_time",
      status: "failed",
      value: ageH,
      threshold,
      message: `It was taken ${hoursText(exactH)} before it was sent, not for this task.`,
      code: "capture_time.too_old",
      params: { hours: exactH },
    };
  return {
    signal: "capture_time",
    status: "passed",
    value: ageH,
    threshold,
    message: `Sent ${hoursText(Math.max(0, exactH))} after it was taken.`,
    code: "capture_time.ok",
    params: { hours: Math.max(0, exactH) },
  };
}

function seenElsewhere(s: AuthenticitySignals, t: AuthenticityThresholds): AuthenticitySignal {
  const seen = s.seenElsewhere;
  if (!seen)
    return {
      signal: "seen_elsewhere",
      status: "passed",
      value: null,
      threshold: t.duplicateMaxDistance,
      message: "The picture has not been sent to the service before.",
      code: "seen_elsewhere.new",
      params: {},
    };
  return {
    signal: "seen_elsewhere",
    status: "failed",
    value: seen.distance,
    threshold: t.duplicateMaxDistance,
    message: `The same picture was already sent to the service${seen.sameOrganisation ? " for one of your orders or missions" : ""}${seen.distance > 0 ? " (nearly identical)" : ""}.`,
    code: "seen_elsewhere.seen",
    params: { same: seen.sameOrganisation ? "yes" : "no", near: seen.distance > 0 ? "yes" : "no" },
  };
}

/** Judges the signals: any failed signal fails the check; missing ones are recorded as not evaluated, never as passed. */
export function checkAuthenticity(signals: AuthenticitySignals, thresholds: AuthenticityThresholds = AUTHENTICITY_THRESHOLDS): CheckResult {
  const all = [devicePosition(signals, thresholds), editTraces(signals, thresholds), captureTime(signals, thresholds), seenElsewhere(signals, thresholds)];
  const failed = all.filter((s) => s.status === "failed");
  return judged("authenticity", failed.length === 0, {
    score: failed.length === 0 ? 1 : 0,
    value: failed.length,
    threshold: 0,
    message:
      failed.length === 0
        ? "No signs of a changed location, an edited file, an old photo or a reused picture."
        : `Held for review: ${failed.map((s) => s.message).join(" ")}`,
    // For a page: which signals failed (codes.signals.<signal> names each in the reader's words).
    coded: {
      message:
        failed.length === 0
          ? { code: "authenticity.no_signs", params: {} }
          : { code: "authenticity.held", params: { signals: failed.map((s) => s.signal).join(",") } },
      instructions: [],
    },
    // The zoomer is only told the photo is being reviewed (the service says so, not this check).
    instruction: null,
    extra: {
      signals: all,
      device_position: signals.device,
      exif_position: signals.exif,
      captured_at: signals.capturedAt?.toISOString() ?? null,
      received_at: signals.receivedAt.toISOString(),
    },
  });
}

const RecordedSignals = z.array(
  z.object({
    signal: z.enum(["device_position", "edit_traces", "capture_time", "seen_elsewhere"]),
    status: z.string(),
    code: z.string(),
    params: z.record(z.string(), z.union([z.string(), z.number()])),
    message: z.string(),
  }),
);

/** The signals that failed in a recorded `authenticity` check (its `extra.signals`): why a photo was held. */
export function failedSignals(check: CheckResult | undefined): Pick<AuthenticitySignal, "signal" | "code" | "params" | "message">[] {
  const parsed = RecordedSignals.safeParse(check?.extra?.signals);
  if (!parsed.success) return [];
  return parsed.data.filter((s) => s.status === "failed").map(({ signal, code, params, message }) => ({ signal, code, params, message }));
}
