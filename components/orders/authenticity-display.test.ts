import { describe, expect, it } from "vitest";
import { authenticitySignals } from "./authenticity-display";

describe("authenticitySignals", () => {
  it("lists the warning signs first, in words, and ignores what it cannot read", () => {
    const check = {
      status: "failed",
      extra: {
        signals: [
          { signal: "device_position", status: "not_evaluated", message: "The phone did not send its own position with the photo." },
          { signal: "edit_traces", status: "failed", message: "Signs of editing: the file was written by GIMP." },
          { signal: "capture_time", status: "passed", message: "Sent 2 min after it was taken." },
          { nonsense: true },
        ],
      },
    };
    expect(authenticitySignals(check).map((s) => `${s.label}|${s.verdict}`)).toEqual([
      "File edits|failed",
      "Phone's position|not_evaluated",
      "When it was taken|passed",
    ]);
    expect(authenticitySignals(undefined)).toEqual([]);
    expect(authenticitySignals({ extra: { signals: "x" } })).toEqual([]);
  });
});
