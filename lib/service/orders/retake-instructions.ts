// The instructions a person gives a retake — an account manager rejecting a held photo, a partner
// sending a delivered one back — as the English sentence the API keeps in `instructions` and as a
// stable code with the person's own words as a figure, so the field page and the dashboard say the
// prefix in the reader's language (messages/<locale>/codes.json, group `retake`). The reason itself
// is shown as it was written.
import type { Localisable } from "@/lib/verification/place-checks";

export interface RetakeInstruction {
  text: string;
  coded: Localisable;
}

/** The account manager rejected a photo held for review. */
export function rejectedAtReview(reason: string): RetakeInstruction {
  return { text: `The photo was rejected at review: ${reason}`, coded: { code: "retake.rejected_at_review", params: { reason } } };
}

/** The partner asked for a delivered photo again. */
export function partnerAskedAgain(reason: string): RetakeInstruction {
  return { text: `The partner asked for this photo again: ${reason}`, coded: { code: "retake.partner_asked", params: { reason } } };
}

const isLocalisable = (v: unknown): v is Localisable =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as Localisable).code === "string" &&
  typeof (v as Localisable).params === "object" &&
  (v as Localisable).params !== null;

/**
 * An assignment's instructions as codes: its own (stored since retakes carry them), else the
 * previous attempt's verdict's (older rows), else each English sentence under the code `text`.
 */
export function instructionCodesOf(instructions: string[], own: unknown, previous?: unknown): Localisable[] {
  if (Array.isArray(own) && (own.length > 0 || instructions.length === 0) && own.every(isLocalisable)) return own;
  if (Array.isArray(previous) && previous.length > 0 && previous.every(isLocalisable)) return previous;
  return instructions.map((text) => ({ code: "text", params: { text } }));
}
