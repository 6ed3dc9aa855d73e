// Checks on the phone before a photo is sent, with the service's own rules and thresholds: where
// (location_match for a task, the mission area for a mission), which way (angle_match), when
// (time_of_day: the sun and the order's local time; the task's window), sharpness and exposure
// (the QA measures on a copy the phone scaled down), and whether the same photo already waits in
// the outbox. The photo's own EXIF is used when it has it (position, direction, capture time),
// else the phone's evidence at capture. The zoomer sees pass / fail with the instruction the
// server would give while still on the spot; they may send anyway (the server decides).
import { CATEGORIES, TIMES_OF_DAY, type Angle, type Category, type TimeOfDay } from "@/lib/orders/vocabulary";
import { polygonFromApi } from "@/lib/geo/polygon-from-api";
import { DEFAULT_QA_THRESHOLDS, type QaCheck, type QaThresholds } from "@/lib/schemas/qa";
import { judgeExposure, judgeInsideBounds, judgeSharpness } from "@/lib/verification/image-quality";
import { photoFactsFromExif } from "@/lib/verification/photo-facts";
import { checkAngle, checkLocation, VERIFICATION_THRESHOLDS, type CheckResult, type Localisable } from "@/lib/verification/place-checks";
import { checkTimeOfDay } from "@/lib/verification/time-of-day";
import type { CaptureEvidence, OutboxEntry } from "./outbox-state";
import { isPending } from "./outbox-state";
import { isHeifFormat } from "./photo-format";
import type { PhotoReading } from "./read-photo";

export interface TaskToCheck {
  angle: Angle;
  category: string;
  location: { lat: number; lng: number; name: string; time_zone: string };
  window: { starts_at: string; ends_at: string } | null;
  time_of_day: { requirement: string } | null;
  /** The order's local hours ("HH:MM-HH:MM"), judged with the time of day as the server does. */
  requirements?: { time_window: string | null } | null;
}

export interface MissionToCheck {
  /** As the field API gives it. */
  bounds: { type: "Polygon"; coordinates: number[][][] };
}

/** A photo chosen on the phone: what it reads from the file (null while it reads) and the phone's evidence. */
export interface PhotoToCheck {
  evidence: CaptureEvidence;
  reading: PhotoReading | null;
  /** The outbox entry with the same SHA-256, if any. */
  sameAs: Pick<OutboxEntry, "state"> | null;
}

export type PreSendCheckName = "location_match" | "inside_bounds" | "angle_match" | "time_of_day" | "window" | "sharpness" | "exposure" | "duplicate";

export interface PreSendCheck {
  name: PreSendCheckName;
  status: CheckResult["status"];
  /** English, as the server words it. */
  message: string;
  instruction: string | null;
  /** The same as codes and figures for the page to say in the reader's language (messages/<locale>/codes.json). */
  coded: {
    message: Localisable | null;
    instruction: Localisable[] | null;
    /** Said after the sentence: the position was the phone's, not the photo's. */
    note: Localisable | null;
  };
}

const code = (c: `pre_send.${string}`, params: Localisable["params"] = {}): Localisable => ({ code: c, params });
/** A check's result as the page's codes. */
const codedOf = (r: Pick<CheckResult, "code" | "params" | "instruction_codes">, note: Localisable | null = null): PreSendCheck["coded"] => ({
  message: r.code ? { code: r.code, params: r.params ?? {} } : null,
  instruction: r.instruction_codes ?? null,
  note,
});
const FROM_PHONE = code("pre_send.from_phone");

const isCategory = (c: string): c is Category => (CATEGORIES as readonly string[]).includes(c);
const isTimeOfDay = (t: string): t is TimeOfDay => (TIMES_OF_DAY as readonly string[]).includes(t);
const clock = (iso: string, timeZone?: string) => new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone }).format(new Date(iso));

/** The outbox entry holding the same photo (same SHA-256), if any. */
export function sameOutboxPhoto<T extends Pick<OutboxEntry, "sha256">>(sha256: string | undefined, entries: readonly T[]): T | null {
  return sha256 ? (entries.find((e) => e.sha256 === sha256) ?? null) : null;
}

/** Where and which way the photo was taken: its EXIF when it has GPS, else the phone's fix and compass. */
function whereAndWhen(photo: PhotoToCheck, timeZone: string) {
  const facts = photo.reading ? photoFactsFromExif(photo.reading.exif, timeZone) : { gps: null, capturedAt: null };
  const fix = photo.evidence.position;
  const fromExif = facts.gps !== null;
  const position = facts.gps
    ? { lat: facts.gps.lat, lng: facts.gps.lng, accuracy_m: facts.gps.accuracyM }
    : fix
      ? { lat: fix.lat, lng: fix.lng, accuracy_m: fix.accuracy_m }
      : null;
  // Phones' compasses (iOS's webkitCompassHeading, an absolute DeviceOrientation) point to magnetic north.
  const direction =
    facts.gps && facts.gps.directionDeg !== null
      ? { deg: facts.gps.directionDeg, ref: facts.gps.directionRef }
      : photo.evidence.heading_deg !== null
        ? { deg: photo.evidence.heading_deg, ref: "magnetic" as const }
        : null;
  const capturedAt = facts.capturedAt ?? new Date(photo.evidence.captured_at);
  return { position, fromExif, direction, capturedAt };
}

const fromPhone = (message: string, fromExif: boolean, hasPosition: boolean) =>
  hasPosition && !fromExif ? `${message} Measured from this phone's position: the photo itself has no location, so turn on location for the camera.` : message;

function fromQa(name: PreSendCheckName, qa: QaCheck): PreSendCheck {
  // The service gives a failed QA check's sentence as the reason to retake.
  const coded = qa.code ? { code: qa.code, params: qa.params ?? {} } : null;
  return {
    name,
    status: qa.passed ? "passed" : "failed",
    message: qa.message,
    instruction: qa.passed ? null : qa.message,
    coded: { message: coded, instruction: qa.passed || !coded ? null : [coded], note: null },
  };
}

function qualityChecks(photo: PhotoToCheck, thresholds: QaThresholds): PreSendCheck[] {
  if (!photo.reading) {
    const reading = "Reading the photo…";
    const coded = { message: code("pre_send.reading"), instruction: null, note: null };
    return [
      { name: "sharpness", status: "not_evaluated", message: reading, instruction: null, coded },
      { name: "exposure", status: "not_evaluated", message: reading, instruction: null, coded },
    ];
  }
  const quality = photo.reading.quality;
  if (!quality) {
    // Most browsers other than Safari cannot decode HEIC: it is still sent, and the server measures it.
    const heic = isHeifFormat(photo.reading.format);
    const why = heic
      ? "This browser cannot open HEIC photos to measure them; the server will check sharpness and brightness."
      : "This phone could not open the picture to measure it; the server will.";
    const coded = { message: code(heic ? "pre_send.heic_server_checks" : "pre_send.cannot_measure"), instruction: null, note: null };
    return [
      { name: "sharpness", status: "not_evaluated", message: why, instruction: null, coded },
      { name: "exposure", status: "not_evaluated", message: why, instruction: null, coded },
    ];
  }
  return [fromQa("sharpness", judgeSharpness(quality.sharpness, thresholds)), fromQa("exposure", judgeExposure(quality.brightness, thresholds))];
}

function duplicateCheck(photo: PhotoToCheck): PreSendCheck[] {
  if (!photo.reading) return [];
  if (!photo.sameAs)
    return [
      {
        name: "duplicate",
        status: "passed",
        message: "Not already on this phone.",
        instruction: null,
        coded: { message: code("pre_send.not_on_phone"), instruction: null, note: null },
      },
    ];
  const waiting = isPending(photo.sameAs.state) || photo.sameAs.state.phase === "refused";
  return [
    {
      name: "duplicate",
      status: "failed",
      message: waiting ? "This photo is already waiting to be sent." : "This photo was already sent.",
      instruction: waiting
        ? "This photo is already waiting to be sent: it goes once. Take a new photo if you want another."
        : "This photo was already sent: take a new one.",
      coded: {
        message: code(waiting ? "pre_send.already_waiting" : "pre_send.already_sent"),
        instruction: [code(waiting ? "pre_send.already_waiting_do" : "pre_send.already_sent_do")],
        note: null,
      },
    },
  ];
}

export function checksBeforeSending(task: TaskToCheck, photo: PhotoToCheck): PreSendCheck[] {
  const thresholds = VERIFICATION_THRESHOLDS[isCategory(task.category) ? task.category : "cultural_exterior"];
  const { lat, lng, name, time_zone: timeZone } = task.location;
  const target = { lat, lng, name };
  const { position, fromExif, direction, capturedAt } = whereAndWhen(photo, timeZone);
  const checks: PreSendCheck[] = [];

  if (!position) {
    checks.push({
      name: "location_match",
      status: "not_evaluated",
      message: "Neither the photo nor the phone gave a position, so the distance to the target is unknown.",
      instruction: "Allow location for this page and for the camera.",
      coded: { message: code("pre_send.no_position"), instruction: [code("pre_send.allow_location")], note: null },
    });
  } else {
    const location = checkLocation({
      photo: { lat: position.lat, lng: position.lng, accuracyM: position.accuracy_m },
      target,
      radiusM: thresholds.locationRadiusM,
      maxAccuracyCreditM: thresholds.maxAccuracyCreditM,
    });
    checks.push({
      name: "location_match",
      status: location.status,
      message: fromPhone(location.message, fromExif, true),
      instruction: location.instruction,
      coded: codedOf(location, fromExif ? null : FROM_PHONE),
    });
  }

  const angle = checkAngle({
    photo: position ? { lat: position.lat, lng: position.lng, directionDeg: direction?.deg ?? null, directionRef: direction?.ref ?? null, capturedAt } : null,
    target,
    angle: task.angle,
    toleranceDeg: thresholds.angleToleranceDeg,
    minDistanceM: thresholds.minBearingDistanceM,
  });
  const noCompass = direction === null && angle.status === "not_evaluated" && position !== null;
  checks.push({
    name: "angle_match",
    status: angle.status,
    message: noCompass ? "Neither the photo nor the phone's compass says which way you faced, so the direction is not checked here." : angle.message,
    instruction: angle.instruction,
    coded: noCompass ? { message: code("pre_send.no_compass"), instruction: null, note: null } : codedOf(angle),
  });

  const requirement = task.time_of_day?.requirement;
  const timeOfDay = requirement && isTimeOfDay(requirement) ? requirement : undefined;
  const timeWindow = task.requirements?.time_window ?? undefined;
  if (timeOfDay || timeWindow) {
    const time = checkTimeOfDay({ capturedAt, lat, lng, timeZone, ...(timeOfDay ? { timeOfDay } : {}), ...(timeWindow ? { timeWindow } : {}) });
    checks.push({ name: "time_of_day", status: time.status, message: time.message, instruction: time.instruction, coded: codedOf(time) });
  }

  if (task.window) {
    const at = capturedAt.getTime();
    const open = at >= Date.parse(task.window.starts_at) && at <= Date.parse(task.window.ends_at);
    const [from, to] = [clock(task.window.starts_at, timeZone), clock(task.window.ends_at, timeZone)];
    checks.push({
      name: "window",
      status: open ? "passed" : "failed",
      message: open ? `Taken inside the window, which is open until ${to}.` : `Taken outside the window (${from}–${to}).`,
      instruction: open ? null : `Take the photo between ${from} and ${to} local time.`,
      coded: {
        message: open ? code("pre_send.inside_window", { to }) : code("pre_send.outside_window", { from, to }),
        instruction: open ? null : [code("pre_send.take_in_window", { from, to })],
        note: null,
      },
    });
  }

  return [...checks, ...qualityChecks(photo, DEFAULT_QA_THRESHOLDS), ...duplicateCheck(photo)];
}

export function missionChecksBeforeSending(mission: MissionToCheck, photo: PhotoToCheck, thresholds: QaThresholds = DEFAULT_QA_THRESHOLDS): PreSendCheck[] {
  // Mission areas carry no zone of their own: the capture time only dates the compass correction.
  const { position, fromExif } = whereAndWhen(photo, "UTC");
  const inside = fromQa("inside_bounds", judgeInsideBounds(polygonFromApi(mission.bounds), position, thresholds));
  const note = position !== null && !fromExif ? FROM_PHONE : null;
  return [
    { ...inside, message: fromPhone(inside.message, fromExif, position !== null), coded: { ...inside.coded, note } },
    ...qualityChecks(photo, thresholds),
    ...duplicateCheck(photo),
  ];
}
