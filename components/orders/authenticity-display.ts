// The authenticity check's signals in plain words for the order pages: each warning sign (or its
// absence) with a short name, from the check's `extra.signals` (lib/service/verification/authenticity.ts).

import type { CodedSignal } from "./signal-text";

export interface SignalView {
  signal: string;
  label: string;
  verdict: "passed" | "failed" | "not_evaluated";
  message: string;
  /** The message as a code and its figures, for the reader's language (./signal-text.ts); none on signals recorded before codes. */
  coded: CodedSignal | null;
}

const SIGNAL_LABELS: Record<string, string> = {
  device_position: "Phone's position",
  edit_traces: "File edits",
  capture_time: "When it was taken",
  seen_elsewhere: "Seen before",
};

const SIGNAL_ORDER = ["device_position", "edit_traces", "capture_time", "seen_elsewhere"];

/** The signals, warning signs first; an unreadable or absent check gives none. */
export function authenticitySignals(check: unknown): SignalView[] {
  const extra = check && typeof check === "object" ? (check as { extra?: unknown }).extra : null;
  const raw = extra && typeof extra === "object" ? (extra as { signals?: unknown }).signals : null;
  if (!Array.isArray(raw)) return [];
  const views = raw.flatMap((s): SignalView[] => {
    if (!s || typeof s !== "object") return [];
    const { signal, status, message, code, params } = s as Record<string, unknown>;
    if (typeof signal !== "string" || typeof message !== "string") return [];
    const verdict = status === "failed" || status === "passed" ? status : "not_evaluated";
    const coded = typeof code === "string" && params && typeof params === "object" ? { code, params: params as CodedSignal["params"] } : null;
    return [{ signal, label: SIGNAL_LABELS[signal] ?? signal.replaceAll("_", " "), verdict, message, coded }];
  });
  const rank = (v: SignalView) => (v.verdict === "failed" ? 0 : 1) * 10 + (SIGNAL_ORDER.indexOf(v.signal) + 1 || 9);
  return views.sort((a, b) => rank(a) - rank(b));
}
