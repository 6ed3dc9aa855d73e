// The account manager's decision on a photo held for review (its authenticity check failed):
// approved, it is verified as if the checks had passed and delivered with its location's set;
// rejected, it fails — a retake opens with the reviewer's reason, or after MAX_RETAKES the
// location is given up and refunded. Either way the decision, who made it and when are kept.
import { and, eq } from "drizzle-orm";
import { assignments } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";
import { ApiError, notFound } from "@/lib/service/errors";
import type { VerificationResult } from "@/lib/service/verification/checks";
import { getOrderRow } from "./order-rows";
import { rejectedAtReview } from "./retake-instructions";
import { acceptPhoto, MAX_RETAKES, refusePhoto } from "./verify-assignment";

export type ReviewDecision = "approve" | "reject";

export interface ReviewHeldPhotoOptions {
  orgId: string;
  orderId: string;
  photoId: string;
  decision: ReviewDecision;
  /** Required to reject: the zoomer's instruction for the retake. */
  reason?: string | undefined;
  /** Who decided (the dashboard user's or the API client's id). */
  reviewer: string;
}

export async function reviewHeldPhoto(ctx: ServiceContext, options: ReviewHeldPhotoOptions): Promise<{ status: "verified" | "failed" | "given_up" }> {
  const { orgId, orderId, photoId, decision, reason, reviewer } = options;
  if (decision === "reject" && !reason)
    throw new ApiError(422, "reason_required", "Say why the photo is rejected: it becomes the zoomer's instruction for the retake.");
  const outcome = await ctx.db.transaction(async (tx) => {
    const order = await getOrderRow(tx, orgId, orderId, { forUpdate: true });
    const [held] = await tx
      .select()
      .from(assignments)
      .where(and(eq(assignments.orderId, order.id), eq(assignments.imageId, photoId)))
      .limit(1);
    if (!held) throw notFound("photo");
    if (held.status !== "held_for_review")
      throw new ApiError(409, "not_held_for_review", `This photo is not waiting for review (it is ${held.status.replaceAll("_", " ")}).`);
    const now = new Date();
    const approve = decision === "approve";
    const stored = held.verification as VerificationResult;
    // The reviewer's reason under a prefix the zoomer reads in their language (codes.retake.*); the English stays in `instructions`.
    const said = rejectedAtReview(reason ?? "");
    const result: VerificationResult = {
      ...stored,
      status: approve ? "approved" : "rejected",
      instructions: approve ? [] : [said.text],
      instruction_codes: approve ? [] : [said.coded],
    };
    const [decided] = await tx
      .update(assignments)
      .set({
        status: approve ? "verified" : "failed",
        verification: result,
        reviewDecision: approve ? "approved" : "rejected",
        reviewedBy: reviewer,
        reviewedAt: now,
        updatedAt: now,
      })
      .where(and(eq(assignments.id, held.id), eq(assignments.status, "held_for_review")))
      .returning();
    if (!decided) throw new ApiError(409, "not_held_for_review", "This photo was decided concurrently.");
    if (approve) {
      await acceptPhoto(tx, { order, assignment: decided, result, now });
      return "verified" as const;
    }
    await refusePhoto(tx, ctx, { order, assignment: decided, result, now });
    return decided.attempt >= MAX_RETAKES ? ("given_up" as const) : ("failed" as const);
  });
  ctx.wakeWorkers("orders", "webhooks");
  return { status: outcome };
}
