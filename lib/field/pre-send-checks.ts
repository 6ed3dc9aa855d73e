// Checks on the phone before a task's photo is sent, with the service's own rules and thresholds
// (lib/verification/place-checks: location_match, angle_match) applied to the phone's evidence at
// capture — its position with accuracy and its compass heading — and whether the task's window is
// open. The zoomer sees pass / fail with the instruction the server would give while still on the
// spot; they may send anyway (the server decides, on the photo's own EXIF).
import { CATEGORIES, type Angle, type Category } from "@/lib/orders/vocabulary";
import { checkAngle, checkLocation, VERIFICATION_THRESHOLDS, type CheckResult } from "@/lib/verification/place-checks";
import type { CaptureEvidence } from "./outbox-state";

export interface TaskToCheck {
  angle: Angle;
  category: string;
  location: { lat: number; lng: number; name: string };
  window: { starts_at: string; ends_at: string } | null;
}

export type PreSendCheck = Pick<CheckResult, "status" | "message" | "instruction"> & { name: "location_match" | "angle_match" | "window" };

const isCategory = (c: string): c is Category => (CATEGORIES as readonly string[]).includes(c);
const clock = (iso: string, timeZone?: string) => new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone }).format(new Date(iso));

export function checksBeforeSending(task: TaskToCheck, evidence: CaptureEvidence, { timeZone }: { timeZone?: string } = {}): PreSendCheck[] {
  const thresholds = VERIFICATION_THRESHOLDS[isCategory(task.category) ? task.category : "cultural_exterior"];
  const target = task.location;
  const position = evidence.position;
  const checks: PreSendCheck[] = [];

  if (!position) {
    checks.push({ name: "location_match", status: "not_evaluated", message: "The phone has not given its position, so the distance to the target is unknown.", instruction: "Allow location for this page." });
  } else {
    const { status, message, instruction } = checkLocation({
      photo: { lat: position.lat, lng: position.lng, accuracyM: position.accuracy_m },
      target,
      radiusM: thresholds.locationRadiusM,
      maxAccuracyCreditM: thresholds.maxAccuracyCreditM,
    });
    checks.push({ name: "location_match", status, message, instruction });
  }

  // Phones' compasses (iOS's webkitCompassHeading, an absolute DeviceOrientation) point to magnetic north.
  const angle = checkAngle({
    photo: position ? { lat: position.lat, lng: position.lng, directionDeg: evidence.heading_deg, directionRef: "magnetic", capturedAt: new Date(evidence.captured_at) } : null,
    target,
    angle: task.angle,
    toleranceDeg: thresholds.angleToleranceDeg,
    minDistanceM: thresholds.minBearingDistanceM,
  });
  checks.push({
    name: "angle_match",
    status: angle.status,
    // The server reads the direction from the photo's EXIF; here it is the phone's compass.
    message: evidence.heading_deg === null && angle.status === "not_evaluated" ? "The phone's compass is not available, so the direction is not checked here." : angle.message,
    instruction: angle.instruction,
  });

  if (task.window) {
    const at = Date.parse(evidence.captured_at);
    const open = at >= Date.parse(task.window.starts_at) && at <= Date.parse(task.window.ends_at);
    checks.push({
      name: "window",
      status: open ? "passed" : "failed",
      message: open ? `The window is open until ${clock(task.window.ends_at, timeZone)}.` : `Outside the window (${clock(task.window.starts_at, timeZone)}–${clock(task.window.ends_at, timeZone)}).`,
      instruction: open ? null : `Take the photo between ${clock(task.window.starts_at, timeZone)} and ${clock(task.window.ends_at, timeZone)} local time.`,
    });
  }
  return checks;
}
