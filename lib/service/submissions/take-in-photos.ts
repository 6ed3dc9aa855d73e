// The one intake operation for a zoomer's photos, behind both doors: the multipart routes
// (receiveSubmission) and a finished tus upload (completeFieldUpload) each hand over finished files
// and their target, and this decides whether they are a submission already made or a new one.
//
// The key is zoomer + target + the photos' SHA-256s: the same photo sent again for the same target
// by the same zoomer — by either door, at any moment, at the same moment, or while the first copy
// is still in QA — finds the one submission, and the answer names it. Another zoomer's identical
// bytes make a submission of their own, which QA rejects as a duplicate.
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { assignments, missions, submissions } from "@/lib/db/schema";
import type { Submission } from "@/lib/schemas/submission";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import type { UploadedFile } from "./parse-upload";
import { IntakeKeyTaken, recordSubmission, type SubmissionFields } from "./receive-submission";
import { serializeSubmission } from "./serialize-submission";

/** What a photo is for: a mission (`mission_…`) or a task of an order the zoomer holds (`asg_…`). */
export type IntakeTarget = { kind: "mission"; missionId: string } | { kind: "assignment"; assignmentId: string };

/**
 * The intake key: SHA-256 of `zoomer \n target \n photos`, where photos are the SHA-256s (hex) of
 * the submission's photos, sorted and joined by ",". One photo (every tus upload, every task
 * photo) is just its own SHA-256, so the key of a photo is the same through either door; a
 * multipart submission of several photos repeats when the same set is sent again, in any order.
 */
export function intakeKey({ zoomerId, target, photoSha256s }: { zoomerId: string; target: IntakeTarget; photoSha256s: string[] }): string {
  const targetId = target.kind === "assignment" ? target.assignmentId : target.missionId;
  return createHash("sha256")
    .update(`${zoomerId}\n${targetId}\n${[...photoSha256s].sort().join(",")}`)
    .digest("hex");
}

/** The target, resolved: where a new submission would go, or why a new one would be refused. */
export interface CheckedTarget {
  target: IntakeTarget;
  missionId: string;
  assignment?: { id: string; angle: string };
  /** Why a photo not sent before is refused (closed mission, task not held); a repeat still finds its submission. */
  refusal: ApiError | null;
}

export interface CheckIntakeTargetOptions {
  ctx: ServiceContext;
  zoomerId: string;
  target: IntakeTarget;
  /**
   * When the photo began to be sent: a task's reservation must have been running then (a
   * multipart request: now; a tus upload: its creation, where it was checked too), so a slow
   * upload begun in time is not lost at its last byte.
   */
  sendingSince: Date;
}

/**
 * Checks the target before the photo is looked at (for multipart, before its body is read): what
 * can only be refused is refused at once; what could be a repeat (the zoomer sent something there
 * before) is let through, and refused after the key lookup if it is not one.
 */
export async function checkIntakeTarget({ ctx, zoomerId, target, sendingSince }: CheckIntakeTargetOptions): Promise<CheckedTarget> {
  if (target.kind === "mission") {
    const [mission] = await ctx.db
      .select({ status: missions.status, orderId: missions.orderId })
      .from(missions)
      .where(eq(missions.id, target.missionId))
      .limit(1);
    if (!mission) throw notFound("mission");
    const refusal =
      mission.status !== "active"
        ? new ApiError(409, "mission_not_active", `The mission is ${mission.status}; it takes no more submissions.`)
        : mission.orderId
          ? new ApiError(409, "take_the_task", "This mission belongs to an order: take one of its tasks (GET /field/assignments) and submit the photo there.")
          : null;
    if (refusal && !(await hasSubmittedTo(ctx, zoomerId, target.missionId))) throw refusal;
    return { target, missionId: target.missionId, refusal };
  }
  const [task] = await ctx.db.select().from(assignments).where(eq(assignments.id, target.assignmentId)).limit(1);
  if (!task) throw notFound("assignment");
  const notHeld = new ApiError(409, "assignment_not_reserved", "Take this task before submitting a photo for it.");
  if (task.zoomerId !== zoomerId) throw notHeld;
  const refusal =
    task.status !== "reserved"
      ? notHeld
      : (task.reservedUntil ?? new Date(0)) < sendingSince
        ? new ApiError(409, "reservation_expired", "Your reservation ran out; take the task again.")
        : null;
  // A task is submitted once; only what was sent to it can be a repeat.
  if (refusal && task.submissionId === null) throw refusal;
  return { target, missionId: task.missionId, assignment: { id: task.id, angle: task.angle }, refusal };
}

async function hasSubmittedTo(ctx: ServiceContext, zoomerId: string, missionId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.missionId, missionId), eq(submissions.zoomerId, zoomerId)))
    .limit(1);
  return row !== undefined;
}

export interface TakeInPhotosOptions {
  ctx: ServiceContext;
  zoomerId: string;
  /** From checkIntakeTarget. */
  checked: CheckedTarget;
  /** Finished files, measured (size, SHA-256, head) by whoever wrote or read them; the store may consume them. */
  files: UploadedFile[];
  fields: SubmissionFields;
}

/**
 * The submission these photos make: the one already recorded under their key (sent before, or
 * being recorded at this very moment by the other door), or a new one. Wakes QA for a new one.
 */
export async function takeInPhotos({ ctx, zoomerId, checked, files, fields }: TakeInPhotosOptions): Promise<Submission> {
  const key = intakeKey({ zoomerId, target: checked.target, photoSha256s: files.map((file) => file.sha256) });
  const known = await findByIntakeKey(ctx, key);
  if (known) return known;
  if (checked.refusal) throw checked.refusal;
  try {
    const submission = await recordSubmission({ ctx, zoomerId, missionId: checked.missionId, files, fields, assignment: checked.assignment, intakeKey: key });
    ctx.wakeWorkers("qa", "webhooks");
    return submission;
  } catch (error) {
    // Two copies arriving together both get here: the unique key let the other one in first, and
    // this one is that one.
    const first = error instanceof IntakeKeyTaken ? await findByIntakeKey(ctx, key) : null;
    if (first) return first;
    throw error;
  }
}

/** The submission already recorded under an intake key, if any. */
async function findByIntakeKey(ctx: ServiceContext, key: string): Promise<Submission | null> {
  const [row] = await ctx.db.select().from(submissions).where(eq(submissions.intakeKey, key)).limit(1);
  return row ? serializeSubmission(row) : null;
}
