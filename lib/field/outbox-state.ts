// The life of one photo in the field page's outbox, as pure transitions: written to the phone at
// once ("waiting for signal" until it can go), sent with progress, checked by the server, and only
// then done — approved, or rejected with the reasons (retake). A send cut off by a lost signal or
// a closed tab goes back to waiting; nothing leaves the outbox before the server's verdict.
import type { Localisable } from "@/lib/verification/place-checks";

/** A reason as a code for the page's language; `photo`: which of a submission's photos it is about. */
export type ReasonCode = Localisable & { photo?: number };

/** Where the photo should go: a task (assignment) or an open mission. */
export type OutboxTarget = { kind: "task"; id: string; title: string } | { kind: "mission"; id: string; title: string };

/** The phone's own evidence at capture (sent with the photo; DESIGN.md "Field uploads"). */
export interface CaptureEvidence {
  position: { lat: number; lng: number; accuracy_m: number } | null;
  heading_deg: number | null;
  captured_at: string;
}

export type OutboxState =
  | { phase: "waiting"; attempts: number; lastError: string | null; lastErrorCode?: Localisable | null }
  | { phase: "sending"; percent: number; attempts: number }
  | { phase: "checking"; submissionId: string }
  | { phase: "approved"; submissionId: string }
  | { phase: "rejected"; submissionId: string; reasons: string[]; reasonCodes?: ReasonCode[] }
  /** The server refused the upload itself (a 4xx: the task is no longer yours, not a JPEG…): sending again will not help. */
  | { phase: "refused"; error: string; errorCode?: Localisable };

export interface OutboxEntry {
  id: string;
  /**
   * The zoomer who took it (`usr_…`): it is sent only with their session (lib/field/outbox-owner.ts).
   * Photos kept before owners were recorded have none and are never sent.
   */
  owner?: string;
  /** The owner's name when it was taken (token claim `zoomer_name`), shown to others on the phone instead of the id. */
  ownerName?: string;
  target: OutboxTarget;
  angle: string | null;
  note: string | null;
  filename: string;
  photo: Blob;
  /** The photo's SHA-256 (hex): the same photo is kept once (photos kept before it was recorded have none). */
  sha256?: string;
  evidence: CaptureEvidence;
  createdAt: string;
  state: OutboxState;
}

export type OutboxEvent =
  | { type: "send" }
  | { type: "progress"; percent: number }
  | { type: "lost-signal"; error: string; code?: Localisable }
  | { type: "accepted"; submissionId: string }
  | { type: "refused"; error: string; code?: Localisable }
  | { type: "verdict"; status: "approved" }
  | { type: "verdict"; status: "rejected"; reasons: string[]; reasonCodes?: ReasonCode[] }
  | { type: "retry" };

export const WAITING: OutboxState = { phase: "waiting", attempts: 0, lastError: null };

/** The next state, or the same one when the event does not apply in this phase. */
export function nextState(state: OutboxState, event: OutboxEvent): OutboxState {
  switch (event.type) {
    case "send":
      return state.phase === "waiting" ? { phase: "sending", percent: 0, attempts: state.attempts + 1 } : state;
    case "progress":
      return state.phase === "sending" ? { ...state, percent: Math.max(state.percent, Math.min(100, Math.round(event.percent))) } : state;
    case "lost-signal":
      return state.phase === "sending"
        ? { phase: "waiting", attempts: state.attempts, lastError: event.error, ...(event.code ? { lastErrorCode: event.code } : {}) }
        : state;
    case "accepted":
      return state.phase === "sending" || state.phase === "waiting" ? { phase: "checking", submissionId: event.submissionId } : state;
    case "refused":
      return state.phase === "sending" ? { phase: "refused", error: event.error, ...(event.code ? { errorCode: event.code } : {}) } : state;
    case "verdict":
      if (state.phase !== "checking") return state;
      return event.status === "approved"
        ? { phase: "approved", submissionId: state.submissionId }
        : { phase: "rejected", submissionId: state.submissionId, reasons: event.reasons, ...(event.reasonCodes ? { reasonCodes: event.reasonCodes } : {}) };
    case "retry":
      return state.phase === "refused" && !refusalRepeats(state) ? WAITING : state;
  }
}

/**
 * The state an entry is in when the page opens: a send the closed tab left half-way is waiting
 * again (the transport resumes or restarts it); everything else is as it was stored.
 */
export function stateOnOpen(state: OutboxState): OutboxState {
  return state.phase === "sending" ? { phase: "waiting", attempts: state.attempts, lastError: null } : state;
}

/** Refusals about the photo itself — too large (413), not a photo (415), unreadable or not valid (422): sending again can only repeat them. */
export const REPEATING_REFUSALS: readonly number[] = [413, 415, 422];

/** Whether a refusal can only repeat (then no retry is offered); known from the status the problem code carries. */
export function refusalRepeats(state: Pick<Extract<OutboxState, { phase: "refused" }>, "errorCode">): boolean {
  return REPEATING_REFUSALS.includes(Number(state.errorCode?.params?.status));
}

/** Photos the zoomer still waits for: not yet sent, sending, or sent and being checked. */
export function isPending(state: OutboxState): boolean {
  return state.phase === "waiting" || state.phase === "sending" || state.phase === "checking";
}

/** Photos the server has not received yet. */
export function needsSending(state: OutboxState): boolean {
  return state.phase === "waiting";
}

export function countWaiting(entries: readonly Pick<OutboxEntry, "state">[]): number {
  return entries.filter((e) => isPending(e.state)).length;
}
