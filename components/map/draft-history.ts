/**
 * Undo history of a draft polygon, as a pure reducer: every change the user makes (a finished
 * drawing, an edit, an import, clearing) can be undone, back to where the draft started.
 */
import { samePolygon } from "@/lib/geo/coordinate-precision";
import type { PolygonGeometry } from "@/lib/geo/polygon";

export interface DraftHistory {
  /** Earlier values, oldest first. */
  past: (PolygonGeometry | null)[];
  present: PolygonGeometry | null;
}

export type DraftAction =
  | { type: "set"; value: PolygonGeometry | null }
  | { type: "undo" }
  /** Starts over from a value, forgetting the history (e.g. after the draft was saved). */
  | { type: "reset"; value: PolygonGeometry | null };

/** Enough for any drawing session; bounds memory if a test or a user drags for an hour. */
export const DRAFT_HISTORY_LIMIT = 100;

export function initialDraftHistory(value: PolygonGeometry | null): DraftHistory {
  return { past: [], present: value };
}

export function draftHistoryReducer(state: DraftHistory, action: DraftAction): DraftHistory {
  switch (action.type) {
    case "set":
      // The draw control echoes values it was given; those are not new steps.
      if (samePolygon(state.present, action.value)) return state;
      return { past: [...state.past, state.present].slice(-DRAFT_HISTORY_LIMIT), present: action.value };
    case "undo": {
      if (state.past.length === 0) return state;
      const previous = state.past[state.past.length - 1] ?? null;
      return { past: state.past.slice(0, -1), present: previous };
    }
    case "reset":
      return initialDraftHistory(action.value);
  }
}
