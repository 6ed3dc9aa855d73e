// A partner sends a delivered photo back with a reason: the retake form's limits and the action's
// schema (the API checks the reason again: 3–500 characters).
import { z } from "zod";
import { RETAKE_REASON_MAX, RETAKE_REASON_MIN } from "./types";

export const RetakeRequestSchema = z.object({
  orderId: z.string().regex(/^ord_[A-Za-z0-9]{1,64}$/, "Not an order id."),
  photoId: z.string().regex(/^img_[A-Za-z0-9]{1,64}$/, "Not a photo id."),
  reason: z
    .string()
    .trim()
    .min(RETAKE_REASON_MIN, `Say what is wrong, for the zoomer (at least ${RETAKE_REASON_MIN} characters).`)
    .max(RETAKE_REASON_MAX, `At most ${RETAKE_REASON_MAX} characters.`),
});
