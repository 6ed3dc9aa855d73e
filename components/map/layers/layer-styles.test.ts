import { createExpression, latest, validateStyleMin, type ExpressionSpecification, type StylePropertySpecification } from "@maplibre/maplibre-gl-style-spec";
import { describe, expect, it } from "vitest";

import { SUBMISSION_STATUSES as DATABASE_STATUSES } from "@/lib/db/schema";
import { BASEMAP_COLOURS, offlineBasemapStyle } from "@/lib/map/basemap-style";

import {
  MISSION_BOUNDS_SOURCE_ID,
  STATUS_COLOURS,
  SUBMISSION_CLUSTER_OPTIONS,
  SUBMISSION_STATUSES,
  SUBMISSIONS_SOURCE_ID,
  missionBoundsFillLayer,
  missionBoundsOutlineLayer,
  submissionClusterCountLayer,
  submissionClustersLayer,
  submissionPointsLayer,
  submissionSelectedHaloLayer,
} from "./layer-styles";

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [Number.parseInt(match[1] ?? "", 16), Number.parseInt(match[2] ?? "", 16), Number.parseInt(match[3] ?? "", 16)];
}

function toLinear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map(toLinear) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio. */
function contrast(a: string, b: string): number {
  const [high, low] = [luminance(parseHex(a)), luminance(parseHex(b))].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

// Machado, Oliveira & Fernandes (2009) simulation matrices at full severity, on linear RGB.
const VISION: Record<string, [Rgb, Rgb, Rgb]> = {
  typical: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

function labAsSeenWith(hex: string, matrix: [Rgb, Rgb, Rgb]): Rgb {
  const linear = parseHex(hex).map(toLinear) as Rgb;
  const [r, g, b] = matrix.map((row) => Math.min(1, Math.max(0, row[0] * linear[0] + row[1] * linear[1] + row[2] * linear[2]))) as Rgb;
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

describe("status colours", () => {
  it("cover exactly the statuses the API uses", () => {
    expect([...SUBMISSION_STATUSES]).toEqual([...DATABASE_STATUSES]);
  });

  it("reach 3:1 contrast against the basemap's land and water", () => {
    for (const status of SUBMISSION_STATUSES) {
      expect(contrast(STATUS_COLOURS[status], BASEMAP_COLOURS.land), status).toBeGreaterThanOrEqual(3);
      expect(contrast(STATUS_COLOURS[status], BASEMAP_COLOURS.water), status).toBeGreaterThanOrEqual(3);
    }
  });

  it("stay distinct with every common kind of colour blindness", () => {
    for (const [vision, matrix] of Object.entries(VISION)) {
      for (const [i, a] of SUBMISSION_STATUSES.entries()) {
        for (const b of SUBMISSION_STATUSES.slice(i + 1)) {
          const [la, lb] = [labAsSeenWith(STATUS_COLOURS[a], matrix), labAsSeenWith(STATUS_COLOURS[b], matrix)];
          const deltaE = Math.hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
          expect(deltaE, `${a} vs ${b} with ${vision}`).toBeGreaterThan(25);
        }
      }
    }
  });
});

describe("data layers", () => {
  it("form a valid style on top of the offline basemap", () => {
    const style = offlineBasemapStyle("https://example.com");
    style.sources[SUBMISSIONS_SOURCE_ID] = {
      type: "geojson",
      data: { type: "FeatureCollection", features: [] },
      promoteId: "id",
      ...SUBMISSION_CLUSTER_OPTIONS,
    };
    style.sources[MISSION_BOUNDS_SOURCE_ID] = { type: "geojson", data: { type: "FeatureCollection", features: [] } };
    style.layers.push(
      { ...missionBoundsFillLayer, source: MISSION_BOUNDS_SOURCE_ID },
      { ...missionBoundsOutlineLayer, source: MISSION_BOUNDS_SOURCE_ID },
      { ...submissionClustersLayer, source: SUBMISSIONS_SOURCE_ID },
      { ...submissionClusterCountLayer, source: SUBMISSIONS_SOURCE_ID },
      { ...submissionSelectedHaloLayer, source: SUBMISSIONS_SOURCE_ID },
      { ...submissionPointsLayer, source: SUBMISSIONS_SOURCE_ID },
    );
    expect(validateStyleMin(style)).toEqual([]);
  });
});

describe("the selected point's halo", () => {
  /** A halo paint value for a point with the given feature state. */
  function haloValue(property: "circle-radius" | "circle-stroke-width", state: { selected?: boolean; hover?: boolean }): unknown {
    const spec = submissionSelectedHaloLayer.paint?.[property] as ExpressionSpecification;
    const parsed = createExpression(spec, property, latest.paint_circle[property] as StylePropertySpecification);
    if (parsed.result !== "success") throw new Error(`${property} does not parse`);
    return parsed.value.evaluate({ zoom: 15 }, { type: "Point", properties: {}, geometry: [] } as never, state);
  }

  it("has a size only around the selected point: an unselected point draws nothing, not an invisible circle", () => {
    expect(haloValue("circle-radius", { selected: true })).toBe(13);
    expect(haloValue("circle-stroke-width", { selected: true })).toBe(2);
    for (const state of [{}, { selected: false }, { hover: true }]) {
      expect(haloValue("circle-radius", state)).toBe(0);
      expect(haloValue("circle-stroke-width", state)).toBe(0);
    }
  });
});
