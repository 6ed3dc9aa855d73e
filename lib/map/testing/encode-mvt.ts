/**
 * A small Mapbox Vector Tile (MVT 2.1) encoder for test fixtures: GeoJSON points, lines and
 * polygons of named layers projected into one tile (extent 4096) and written with pbf. Geometry
 * is not clipped to the tile (MapLibre clips when it draws) and features are not simplified.
 */
import { PbfWriter } from "pbf";

export const TILE_EXTENT = 4096;

type Position = [number, number];
export type FixtureGeometry =
  { type: "Point"; coordinates: Position } | { type: "LineString"; coordinates: Position[] } | { type: "Polygon"; coordinates: Position[][] };
export interface FixtureFeature {
  type: "Feature";
  properties: Record<string, string | number | boolean>;
  geometry: FixtureGeometry;
}
export type FixtureLayers = Record<string, FixtureFeature[]>;

/** Web Mercator: lng/lat to pixel coordinates within tile z/x/y at TILE_EXTENT. */
export function projectToTile([lng, lat]: Position, z: number, x: number, y: number): Position {
  const scale = 2 ** z;
  const sin = Math.sin((lat * Math.PI) / 180);
  const worldX = ((lng + 180) / 360) * scale;
  const worldY = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * scale;
  return [Math.round((worldX - x) * TILE_EXTENT), Math.round((worldY - y) * TILE_EXTENT)];
}

const zigzag = (n: number) => (n << 1) ^ (n >> 31);
const command = (id: number, count: number) => (id & 7) | (count << 3);
const MOVE_TO = 1;
const LINE_TO = 2;
const CLOSE_PATH = 7;

/** Twice the signed area in tile coordinates (y down): positive is clockwise on screen. */
function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j];
    const b = ring[i];
    if (a && b) sum += (b[0] - a[0]) * (b[1] + a[1]);
  }
  return -sum;
}

function encodeGeometry(geometry: FixtureGeometry, project: (p: Position) => Position): { type: number; commands: number[] } {
  const commands: number[] = [];
  let cursor: Position = [0, 0];
  const moveTo = (p: Position) => {
    commands.push(command(MOVE_TO, 1), zigzag(p[0] - cursor[0]), zigzag(p[1] - cursor[1]));
    cursor = p;
  };
  const lineTo = (points: Position[]) => {
    commands.push(command(LINE_TO, points.length));
    for (const p of points) {
      commands.push(zigzag(p[0] - cursor[0]), zigzag(p[1] - cursor[1]));
      cursor = p;
    }
  };
  switch (geometry.type) {
    case "Point":
      moveTo(project(geometry.coordinates));
      return { type: 1, commands };
    case "LineString": {
      const [first, ...rest] = geometry.coordinates.map(project);
      if (first) moveTo(first);
      lineTo(rest);
      return { type: 2, commands };
    }
    case "Polygon": {
      geometry.coordinates.forEach((ring, index) => {
        // Drop the closing position (ClosePath closes the ring); exterior clockwise, holes not.
        let points = ring.slice(0, -1).map(project);
        const clockwise = signedArea(points) > 0;
        if (clockwise !== (index === 0)) points = points.reverse();
        const [first, ...rest] = points;
        if (!first) return;
        moveTo(first);
        lineTo(rest);
        commands.push(command(CLOSE_PATH, 1));
      });
      return { type: 3, commands };
    }
  }
}

/** One tile holding every feature of `layers`, projected into tile z/x/y. */
export function encodeTile(layers: FixtureLayers, z: number, x: number, y: number): Uint8Array {
  const pbf = new PbfWriter();
  const project = (p: Position) => projectToTile(p, z, x, y);
  for (const [name, features] of Object.entries(layers)) {
    if (features.length === 0) continue;
    const keys: string[] = [];
    const values: (string | number | boolean)[] = [];
    const encoded = features.map((feature) => {
      const tags: number[] = [];
      for (const [key, value] of Object.entries(feature.properties)) {
        let k = keys.indexOf(key);
        if (k === -1) k = keys.push(key) - 1;
        let v = values.indexOf(value);
        if (v === -1) v = values.push(value) - 1;
        tags.push(k, v);
      }
      return { tags, ...encodeGeometry(feature.geometry, project) };
    });
    pbf.writeMessage(
      3,
      (_: null, layer: PbfWriter) => {
        layer.writeVarintField(15, 2);
        layer.writeStringField(1, name);
        encoded.forEach((feature, id) =>
          layer.writeMessage(
            2,
            (_: null, f: PbfWriter) => {
              f.writeVarintField(1, id + 1);
              f.writePackedVarint(2, feature.tags);
              f.writeVarintField(3, feature.type);
              f.writePackedVarint(4, feature.commands);
            },
            null,
          ),
        );
        for (const key of keys) layer.writeStringField(3, key);
        for (const value of values)
          layer.writeMessage(
            4,
            (_: null, v: PbfWriter) => {
              if (typeof value === "string") v.writeStringField(1, value);
              else if (typeof value === "boolean") v.writeBooleanField(7, value);
              else if (Number.isInteger(value)) v.writeSVarintField(6, value);
              else v.writeDoubleField(3, value);
            },
            null,
          );
        layer.writeVarintField(5, TILE_EXTENT);
      },
      null,
    );
  }
  return pbf.finish();
}
