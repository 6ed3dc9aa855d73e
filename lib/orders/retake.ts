// A partner sends a delivered photo back with a reason: the retake form's limits and the action's
// schema (the API checks the reason again: 3–500 characters).
import { z } from "zod";
import { RETAKE_REASON_MAX, RETAKE_REASON_MIN } from "./limits";
import { OrderIdSchema, PhotoIdSchema } from "./order-ids";

export const RetakeRequestSchema = z.object({
  orderId: OrderIdSchema,
  photoId: PhotoIdSchema,
  reason: z
    .string()
    .trim()
    .min(RETAKE_REASON_MIN, `Say what is wrong, for the zoomer (at least ${RETAKE_REASON_MIN} characters).`)
    .max(RETAKE_REASON_MAX, `At most ${RETAKE_REASON_MAX} characters.`),
});

/** The account manager's decision on a photo held for review; a rejection needs the zoomer's instruction. */
export const HeldPhotoReviewSchema = z.discriminatedUnion("decision", [
  z.object({ orderId: OrderIdSchema, photoId: PhotoIdSchema, decision: z.literal("approve") }),
  z.object({
    orderId: OrderIdSchema,
    photoId: PhotoIdSchema,
    decision: z.literal("reject"),
    reason: z
      .string()
      .trim()
      .min(RETAKE_REASON_MIN, `Say what is wrong, for the zoomer (at least ${RETAKE_REASON_MIN} characters).`)
      .max(RETAKE_REASON_MAX, `At most ${RETAKE_REASON_MAX} characters.`),
  }),
]);
