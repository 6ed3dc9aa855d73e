import { describe, expect, it } from "vitest";
import { WAITING, countWaiting, isPending, nextState, refusalRepeats, stateOnOpen, type OutboxEvent, type OutboxState } from "./outbox-state";

const run = (events: OutboxEvent[], from: OutboxState = WAITING) => events.reduce(nextState, from);

describe("the outbox's photo states", () => {
  it("goes waiting → sending → checking → approved", () => {
    const states = [WAITING];
    for (const e of [
      { type: "send" },
      { type: "progress", percent: 42.4 },
      { type: "accepted", submissionId: "sub_1" },
      { type: "verdict", status: "approved" },
    ] as OutboxEvent[]) {
      states.push(nextState(states[states.length - 1] as OutboxState, e));
    }
    expect(states.map((s) => s.phase)).toEqual(["waiting", "sending", "sending", "checking", "approved"]);
    expect(states[2]).toEqual({ phase: "sending", percent: 42, attempts: 1 });
  });

  it("waits for signal again when the send is cut, and counts the attempts", () => {
    const cut = run([{ type: "send" }, { type: "progress", percent: 60 }, { type: "lost-signal", error: "offline" }]);
    expect(cut).toEqual({ phase: "waiting", attempts: 1, lastError: "offline" });
    expect(run([{ type: "send" }], cut)).toEqual({ phase: "sending", percent: 0, attempts: 2 });
  });

  it("keeps a rejected photo with its reasons", () => {
    const s = run([{ type: "send" }, { type: "accepted", submissionId: "sub_2" }, { type: "verdict", status: "rejected", reasons: ["too dark"] }]);
    expect(s).toEqual({ phase: "rejected", submissionId: "sub_2", reasons: ["too dark"] });
    expect(isPending(s)).toBe(false);
  });

  it("never leaves before the verdict: a verdict only applies while checking, a refusal only while sending", () => {
    expect(nextState(WAITING, { type: "verdict", status: "approved" })).toBe(WAITING);
    expect(nextState(WAITING, { type: "refused", error: "x" })).toBe(WAITING);
    const approved: OutboxState = { phase: "approved", submissionId: "s" };
    expect(nextState(approved, { type: "send" })).toBe(approved);
    expect(nextState(approved, { type: "lost-signal", error: "x" })).toBe(approved);
  });

  it("progress never goes backwards within a send", () => {
    expect(run([{ type: "send" }, { type: "progress", percent: 50 }, { type: "progress", percent: 20 }])).toMatchObject({ percent: 50 });
  });

  it("a refused photo may be tried again on request", () => {
    const refused = run([{ type: "send" }, { type: "refused", error: "not a JPEG" }]);
    expect(refused).toEqual({ phase: "refused", error: "not a JPEG" });
    expect(nextState(refused, { type: "retry" })).toEqual(WAITING);
    // The task was taken by someone else meanwhile (409): another try may work.
    const conflict = run([{ type: "send" }, { type: "refused", error: "taken", code: { code: "problem.assignment_not_reserved", params: { status: 409 } } }]);
    expect(refusalRepeats(conflict as Extract<OutboxState, { phase: "refused" }>)).toBe(false);
    expect(nextState(conflict, { type: "retry" })).toEqual(WAITING);
  });

  it("a refusal about the photo itself (413, 415, 422) can only repeat: no retry, the server's words kept", () => {
    for (const status of [413, 415, 422]) {
      const detail = `"IMG_1.PNG" is image/png. Photos must be JPEG or HEIC/HEIF (${status}).`;
      const refused = run([{ type: "send" }, { type: "refused", error: detail, code: { code: "problem.unsupported_image_type", params: { status } } }]);
      expect(refused).toMatchObject({ phase: "refused", error: detail });
      expect(refusalRepeats(refused as Extract<OutboxState, { phase: "refused" }>)).toBe(true);
      expect(nextState(refused, { type: "retry" })).toBe(refused);
    }
  });

  it("a send interrupted by a closed tab is waiting again when the page opens", () => {
    expect(stateOnOpen({ phase: "sending", percent: 70, attempts: 3 })).toEqual({ phase: "waiting", attempts: 3, lastError: null });
    const checking: OutboxState = { phase: "checking", submissionId: "s" };
    expect(stateOnOpen(checking)).toBe(checking);
  });

  it("counts the photos the zoomer still waits for", () => {
    const states: OutboxState[] = [
      WAITING,
      { phase: "sending", percent: 1, attempts: 1 },
      { phase: "checking", submissionId: "a" },
      { phase: "approved", submissionId: "b" },
      { phase: "refused", error: "x" },
    ];
    expect(countWaiting(states.map((state) => ({ state })))).toBe(3);
  });
});
