import { describe, expect, it } from "vitest";
import { distanceM } from "@/lib/geo/bearing";
import { validateBounds } from "@/lib/service/missions/validate-bounds";
import { demoMissionAt, FLORENCE_PLACES, offsetPoint } from "./florence-places";
import { seededRandom } from "./seeded-random";

describe("demoMissionAt", () => {
  it("draws valid missions of every shape and several targets around each place", () => {
    const random = seededRandom(7);
    const shapes = new Set<string>();
    const targets = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const place = FLORENCE_PLACES[i % FLORENCE_PLACES.length];
      if (!place) throw new Error("no place");
      const draft = demoMissionAt(place, random);
      const { areaM2, bbox } = validateBounds(draft.bounds);
      expect(areaM2).toBeGreaterThan(100);
      // Within a few hundred metres of the place it is named after.
      expect(distanceM(place, { lng: (bbox[0] + bbox[2]) / 2, lat: (bbox[1] + bbox[3]) / 2 })).toBeLessThan(200);
      expect(draft.title.startsWith(`${place.name} — `)).toBe(true);
      shapes.add(draft.shape);
      targets.add(draft.required_images);
    }
    expect([...shapes].sort()).toEqual(["polygon", "rectangle", "street", "triangle"]);
    expect(targets.size).toBeGreaterThanOrEqual(6);
  });

  it("is repeatable from the seed", () => {
    const place = FLORENCE_PLACES[0];
    if (!place) throw new Error("no place");
    expect(demoMissionAt(place, seededRandom(3))).toEqual(demoMissionAt(place, seededRandom(3)));
  });
});

describe("offsetPoint", () => {
  it("moves the given distance toward the bearing", () => {
    const from = { lat: 43.7731, lng: 11.256 };
    expect(distanceM(from, offsetPoint(from, 35, 120))).toBeCloseTo(35, 0);
    expect(offsetPoint(from, 100, 0).lat).toBeGreaterThan(from.lat);
    expect(offsetPoint(from, 100, 90).lng).toBeGreaterThan(from.lng);
  });
});
