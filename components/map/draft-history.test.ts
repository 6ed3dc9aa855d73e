import { describe, expect, it } from "vitest";

import type { PolygonGeometry } from "@/lib/geo/polygon";

import { DRAFT_HISTORY_LIMIT, draftHistoryReducer, initialDraftHistory, type DraftHistory } from "./draft-history";

function square(size: number): PolygonGeometry {
  return {
    type: "Polygon",
    coordinates: [
      [
        [11.25, 43.77],
        [11.25 + size, 43.77],
        [11.25 + size, 43.77 + size],
        [11.25, 43.77],
      ],
    ],
  };
}

function apply(state: DraftHistory, ...actions: Parameters<typeof draftHistoryReducer>[1][]): DraftHistory {
  return actions.reduce(draftHistoryReducer, state);
}

describe("draftHistoryReducer", () => {
  it("undoes changes in reverse order, back to the initial value", () => {
    const state = apply(initialDraftHistory(null), { type: "set", value: square(0.01) }, { type: "set", value: square(0.02) }, { type: "set", value: null });
    expect(state.present).toBeNull();
    const once = apply(state, { type: "undo" });
    expect(once.present).toEqual(square(0.02));
    const all = apply(once, { type: "undo" }, { type: "undo" });
    expect(all.present).toBeNull();
    expect(all.past).toEqual([]);
    expect(apply(all, { type: "undo" })).toBe(all);
  });

  it("ignores a value equal to the present one (the draw control's echo)", () => {
    const state = apply(initialDraftHistory(square(0.01)), { type: "set", value: square(0.01) });
    expect(state.past).toEqual([]);
  });

  it("forgets history on reset", () => {
    const state = apply(initialDraftHistory(null), { type: "set", value: square(0.01) }, { type: "reset", value: square(0.03) });
    expect(state).toEqual({ past: [], present: square(0.03) });
  });

  it("keeps at most the last DRAFT_HISTORY_LIMIT steps", () => {
    let state = initialDraftHistory(null);
    for (let i = 1; i <= DRAFT_HISTORY_LIMIT + 5; i++) state = draftHistoryReducer(state, { type: "set", value: square(i / 1000) });
    expect(state.past).toHaveLength(DRAFT_HISTORY_LIMIT);
    expect(state.past[0]).toEqual(square(5 / 1000));
  });
});
