// How a photo in the outbox reaches the server and how its verdict is asked for, as an interface
// the outbox runs against (lib/field/outbox.ts), so the outbox is tested without a network and
// the transport can change (multipart today, tus once the resumable endpoint exists) without it.
import type { Localisable } from "@/lib/verification/place-checks";
import { OUTBOX_OWNER_HEADER, OUTBOX_OWNER_MISMATCH } from "./outbox-owner";
import type { OutboxEntry } from "./outbox-state";

export type UploadOutcome =
  | { kind: "accepted"; submissionId: string }
  /** No answer (no signal, a cut connection, a server that is down or busy): try again later. `code`: `error` for the page's language. */
  | { kind: "lost-signal"; error: string; code?: Localisable }
  /** The server said no for a reason sending again will not fix. */
  | { kind: "refused"; error: string; code?: Localisable }
  /** The signed-in zoomer is not the photo's owner (409 outbox_owner_mismatch): it waits for its owner. */
  | { kind: "wrong-owner"; error: string; code: Localisable };

export type UploadPhoto = (entry: OutboxEntry, onProgress: (percent: number) => void) => Promise<UploadOutcome>;

/** A reason as a code; `photo`: which of a submission's photos it is about. */
import type { ReasonCode } from "./outbox-state";
export type { ReasonCode };

export type Verdict = { status: "pending" } | { status: "approved" } | { status: "rejected"; reasons: string[]; reasonCodes?: ReasonCode[] };

/** Asks once; throws when the server cannot be reached (the caller retries with backoff). */
export type CheckVerdict = (entry: OutboxEntry, submissionId: string) => Promise<Verdict>;

/**
 * Whether an HTTP status means "try again later" rather than "this will never be accepted". A 401
 * is the session having run out while the phone had no signal: the photo waits for a new sign-in.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;
}

/** The sentence of a problem+json answer, or a plain one. */
export function problemText(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { detail?: unknown };
    if (typeof parsed.detail === "string") return parsed.detail;
  } catch {
    // not JSON: fall through
  }
  return `Request failed (${status}).`;
}

/** The same as a code for the page (codes.problem.<the problem's stable code>), with the status. */
export function problemCode(status: number, body: string): Localisable {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    if (typeof parsed.code === "string" && /^[a-z_]+$/.test(parsed.code)) return { code: `problem.${parsed.code}`, params: { status } };
  } catch {
    // not JSON: fall through
  }
  return { code: "problem.request_failed", params: { status } };
}

/** A transport's own words as codes (codes.problem.*). */
export const TRANSPORT_CODES = {
  noSignal: { code: "problem.no_signal", params: {} },
  uploadExpired: { code: "problem.upload_expired", params: {} },
  noSubmissionId: { code: "problem.no_submission_id", params: {} },
} as const satisfies Record<string, Localisable>;

/** The headers every request sending this photo carries: its owner (checked server-side against the session). */
export function ownerHeaders(entry: Pick<OutboxEntry, "owner">): Record<string, string> {
  return { [OUTBOX_OWNER_HEADER]: entry.owner ?? "" };
}

/** What a non-accepted answer means for the outbox: wait (no signal, busy), wait for the owner, or refused. */
/**
 * Refusals that clear by themselves: the zoomer holds too many unfinished uploads (the service's
 * per-zoomer caps), and room comes back as they finish or expire. The photo waits and goes again.
 */
const CLEARS_BY_ITSELF = new Set(["problem.too_many_open_uploads", "problem.upload_quota_exceeded"]);

export function answerOutcome(status: number, body: string, lostSignal: string): Exclude<UploadOutcome, { kind: "accepted" }> {
  const error = problemText(status, body);
  const code = problemCode(status, body);
  if (status === 409 && code.code === `problem.${OUTBOX_OWNER_MISMATCH}`) return { kind: "wrong-owner", error, code };
  if (status === 409 && CLEARS_BY_ITSELF.has(code.code)) return { kind: "lost-signal", error, code };
  if (status === 0) return { kind: "lost-signal", error: lostSignal, code: TRANSPORT_CODES.noSignal };
  return isRetryableStatus(status) ? { kind: "lost-signal", error, code } : { kind: "refused", error, code };
}
