import { describe, expect, it } from "vitest";
import { cycleComparisons } from "./cycle-comparison";
import type { DeliveredPhoto } from "./types";

function photo(id: string, location: string, angle: DeliveredPhoto["angle"]): DeliveredPhoto {
  return {
    photo_id: id,
    order_id: "ord_1",
    mission_id: "mis_1",
    location_id: location,
    url: `https://cdn.test/${id}`,
    thumbnail: `https://cdn.test/${id}/t`,
    angle,
    metadata: { captured_at: null, gps: null, weather: null },
    verification: { status: "approved", ai_checks: {} },
    evidence: "header.payload.signature",
    provenance: null,
  };
}

describe("cycleComparisons", () => {
  it("pairs a location's angle across cycles, in cycle order, the last delivery of a cycle winning", () => {
    const photos = [
      photo("img_a0", "loc_a", "front"),
      photo("img_a1", "loc_a", "front"),
      photo("img_a1r", "loc_a", "front"),
      photo("img_a2", "loc_a", "front"),
      photo("img_b0", "loc_b", "front"),
    ];
    const assignments = [
      { photo_id: "img_a2", cycle_index: 2 },
      { photo_id: "img_a0", cycle_index: 0 },
      { photo_id: "img_a1", cycle_index: 1 },
      { photo_id: "img_a1r", cycle_index: 1 },
      { photo_id: "img_b0", cycle_index: 0 },
      { photo_id: null, cycle_index: 3 },
    ];
    const result = cycleComparisons(photos, assignments);
    expect([...result.keys()]).toEqual(["loc_a"]);
    const [front] = result.get("loc_a") ?? [];
    expect(front?.angle).toBe("front");
    expect(front?.shots.map((s) => [s.cycle, s.photo.photo_id])).toEqual([
      [0, "img_a0"],
      [1, "img_a1r"],
      [2, "img_a2"],
    ]);
  });

  it("keeps angles apart and leaves out an angle seen in one cycle only or a photo no task delivered", () => {
    const photos = [photo("f0", "loc_a", "front"), photo("f1", "loc_a", "front"), photo("o0", "loc_a", "overview"), photo("x", "loc_a", "overview")];
    const result = cycleComparisons(photos, [
      { photo_id: "f0", cycle_index: 0 },
      { photo_id: "f1", cycle_index: 1 },
      { photo_id: "o0", cycle_index: 0 },
    ]);
    expect(result.get("loc_a")?.map((c) => c.angle)).toEqual(["front"]);
  });

  it("a one-off order (every photo in cycle 0) has nothing to compare", () => {
    expect(
      cycleComparisons(
        [photo("a", "loc_a", "front"), photo("b", "loc_b", "front")],
        [
          { photo_id: "a", cycle_index: 0 },
          { photo_id: "b", cycle_index: 0 },
        ],
      ).size,
    ).toBe(0);
  });
});
