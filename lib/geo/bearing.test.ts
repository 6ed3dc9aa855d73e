import { describe, expect, it } from "vitest";
import { angularDifferenceDeg, bearingDeg, compassPointName, distanceM, normaliseDeg } from "./bearing";

const DUOMO = { lat: 43.7731, lng: 11.256 };
// One degree of arc on the IUGG mean sphere: 6 371 008.8 m × π / 180.
const ONE_DEGREE_M = 111_195.08;

describe("distanceM", () => {
  it("is zero between a point and itself", () => {
    expect(distanceM(DUOMO, DUOMO)).toBe(0);
  });

  it("measures a degree of latitude and a degree of longitude on the equator", () => {
    expect(distanceM({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(ONE_DEGREE_M, 1);
    expect(distanceM({ lat: 0, lng: 0 }, { lat: 0, lng: 1 })).toBeCloseTo(ONE_DEGREE_M, 1);
  });

  it("shrinks a degree of longitude by cos(latitude)", () => {
    // At 60° a degree of longitude is half as long (to within the chord-vs-arc difference).
    expect(distanceM({ lat: 60, lng: 0 }, { lat: 60, lng: 1 })).toBeCloseTo(ONE_DEGREE_M / 2, -1);
  });

  it("matches the Land's End → John o' Groats reference (movable-type.co.uk: 968.9 km)", () => {
    // Chris Veness, "Calculate distance, bearing and more between latitude/longitude points":
    // 50°03′59″N 005°42′53″W → 58°38′38″N 003°04′12″W, 968.9 km, initial bearing 009°07′11″.
    const landsEnd = { lat: 50 + 3 / 60 + 59 / 3600, lng: -(5 + 42 / 60 + 53 / 3600) };
    const johnOGroats = { lat: 58 + 38 / 60 + 38 / 3600, lng: -(3 + 4 / 60 + 12 / 3600) };
    expect(distanceM(landsEnd, johnOGroats) / 1000).toBeCloseTo(968.9, 0);
    expect(bearingDeg(landsEnd, johnOGroats)).toBeCloseTo(9 + 7 / 60 + 11 / 3600, 2);
  });

  it("is symmetric and short for metres-apart points", () => {
    const near = { lat: DUOMO.lat + 0.0005, lng: DUOMO.lng };
    expect(distanceM(DUOMO, near)).toBeCloseTo(55.6, 1);
    expect(distanceM(near, DUOMO)).toBeCloseTo(distanceM(DUOMO, near), 9);
  });

  it("stays finite for antipodal points", () => {
    expect(distanceM({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(ONE_DEGREE_M * 180, 0);
  });
});

describe("bearingDeg", () => {
  it("gives the four cardinal directions", () => {
    expect(bearingDeg(DUOMO, { lat: DUOMO.lat + 0.001, lng: DUOMO.lng })).toBe(0);
    expect(bearingDeg({ lat: 0, lng: 0 }, { lat: 0, lng: 0.001 })).toBeCloseTo(90, 9);
    expect(bearingDeg(DUOMO, { lat: DUOMO.lat - 0.001, lng: DUOMO.lng })).toBeCloseTo(180, 9);
    expect(bearingDeg({ lat: 0, lng: 0 }, { lat: 0, lng: -0.001 })).toBeCloseTo(270, 9);
  });

  it("stays in [0, 360) just west of north", () => {
    const b = bearingDeg(DUOMO, { lat: DUOMO.lat + 0.001, lng: DUOMO.lng - 0.0001 });
    expect(b).toBeGreaterThan(350);
    expect(b).toBeLessThan(360);
  });

  it("works across the antimeridian and in the southern hemisphere", () => {
    // Just east of 180° is reached by heading east, not by going round the world westwards.
    expect(bearingDeg({ lat: -17.7, lng: 179.99 }, { lat: -17.7, lng: -179.99 })).toBeCloseTo(90, 1);
    // Sydney Opera House seen from the Harbour Bridge's southern end: north-east.
    const bridge = { lat: -33.8587, lng: 151.2101 };
    const opera = { lat: -33.8568, lng: 151.2153 };
    expect(bearingDeg(bridge, opera)).toBeGreaterThan(60);
    expect(bearingDeg(bridge, opera)).toBeLessThan(70);
  });
});

describe("angularDifferenceDeg", () => {
  it("takes the short way round across north", () => {
    expect(angularDifferenceDeg(350, 10)).toBe(20);
    expect(angularDifferenceDeg(10, 350)).toBe(20);
    expect(angularDifferenceDeg(355, 5)).toBe(10);
  });

  it("is 0 for the same direction written differently and 180 for opposite ones", () => {
    expect(angularDifferenceDeg(0, 360)).toBe(0);
    expect(angularDifferenceDeg(-90, 270)).toBe(0);
    expect(angularDifferenceDeg(90, 270)).toBe(180);
    expect(angularDifferenceDeg(45, 100)).toBe(55);
  });
});

describe("normaliseDeg and compassPointName", () => {
  it("wraps any angle into [0, 360)", () => {
    expect(normaliseDeg(-10)).toBe(350);
    expect(normaliseDeg(720)).toBe(0);
    expect(Object.is(normaliseDeg(-360), 0)).toBe(true);
  });

  it("names the nearest compass point", () => {
    expect(compassPointName(0)).toBe("north");
    expect(compassPointName(359)).toBe("north");
    expect(compassPointName(44)).toBe("north-east");
    expect(compassPointName(200)).toBe("south");
    expect(compassPointName(300)).toBe("north-west");
  });
});
