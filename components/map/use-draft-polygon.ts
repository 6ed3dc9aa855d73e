"use client";

import { useCallback, useReducer } from "react";

import type { PolygonGeometry } from "@/lib/geo/polygon";

import { draftHistoryReducer, initialDraftHistory } from "./draft-history";

export interface DraftPolygon {
  value: PolygonGeometry | null;
  /** Records a new value (from DrawControl's onChange, an import, …); undoable. */
  set: (value: PolygonGeometry | null) => void;
  /** Goes back one step. */
  undo: () => void;
  /** Removes the polygon; undoable. */
  clear: () => void;
  /** Replaces the value and forgets the history. */
  reset: (value: PolygonGeometry | null) => void;
  canUndo: boolean;
}

/** The draft polygon of a drawing page, with undo. Pass `value` and `set` to DrawControl. */
export function useDraftPolygon(initial: PolygonGeometry | null = null): DraftPolygon {
  const [state, dispatch] = useReducer(draftHistoryReducer, initial, initialDraftHistory);
  const set = useCallback((value: PolygonGeometry | null) => dispatch({ type: "set", value }), []);
  const undo = useCallback(() => dispatch({ type: "undo" }), []);
  const clear = useCallback(() => dispatch({ type: "set", value: null }), []);
  const reset = useCallback((value: PolygonGeometry | null) => dispatch({ type: "reset", value }), []);
  return { value: state.present, set, undo, clear, reset, canUndo: state.past.length > 0 };
}
