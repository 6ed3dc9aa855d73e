/**
 * Made-up streets for a test basemap, in the layers and `kind`s of the Protomaps basemap schema
 * that @protomaps/basemaps draws: land over `bbox`, a river across it, a park, a grid of major
 * and minor roads with names, and a building in each block.
 */
import type { FixtureFeature, FixtureLayers } from "./encode-mvt";
import type { Bbox } from "./write-pmtiles";

type Position = [number, number];

const polygon = (ring: Position[], properties: FixtureFeature["properties"]): FixtureFeature => ({
  type: "Feature",
  properties,
  geometry: { type: "Polygon", coordinates: [[...ring, ring[0] ?? [0, 0]]] },
});
const rectangle = (w: number, s: number, e: number, n: number, properties: FixtureFeature["properties"]) =>
  polygon(
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
    ],
    properties,
  );
const line = (coordinates: Position[], properties: FixtureFeature["properties"]): FixtureFeature => ({
  type: "Feature",
  properties,
  geometry: { type: "LineString", coordinates },
});

export function streetGrid(bbox: Bbox, blocks = 12): FixtureLayers {
  const [west, south, east, north] = bbox;
  const dx = (east - west) / blocks;
  const dy = (north - south) / blocks;
  const roads: FixtureFeature[] = [];
  for (let i = 1; i < blocks; i++) {
    const major = i % 4 === 0;
    const props = { kind: major ? "major_road" : "minor_road", name: `${major ? "Avenue" : "Street"} ${i}`, min_zoom: major ? 10 : 12 };
    roads.push(
      line(
        [
          [west + i * dx, south],
          [west + i * dx, north],
        ],
        props,
      ),
    );
    roads.push(
      line(
        [
          [west, south + i * dy],
          [east, south + i * dy],
        ],
        { ...props, name: `${major ? "Boulevard" : "Lane"} ${i}` },
      ),
    );
  }
  const buildings: FixtureFeature[] = [];
  for (let i = 0; i < blocks; i++) {
    for (let j = 0; j < blocks; j++) {
      // Gaps here and there, and none in the river's or the park's blocks.
      if ((i + j) % 5 === 0 || j === 5 || ((i === 2 || i === 3) && (j === 7 || j === 8))) continue;
      const w = west + i * dx + dx * 0.2;
      const s = south + j * dy + dy * 0.2;
      buildings.push(rectangle(w, s, w + dx * 0.6, s + dy * 0.6, { kind: "building" }));
    }
  }
  const riverSouth = south + dy * 5.25;
  return {
    earth: [rectangle(west, south, east, north, { kind: "earth" })],
    landuse: [rectangle(west + dx * 2.1, south + dy * 7.1, west + dx * 3.9, south + dy * 8.9, { kind: "park" })],
    water: [rectangle(west, riverSouth, east, riverSouth + dy * 0.5, { kind: "water" })],
    roads,
    buildings,
  };
}
