/**
 * Writes a PMTiles v3 archive (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md) of
 * MVT tiles for test fixtures: a 127-byte header, one uncompressed root directory (no leaf
 * directories: fine for the few hundred tiles a fixture has), JSON metadata, then the tiles in
 * tile-id order, uncompressed. Readers (the pmtiles package, MapLibre through its protocol) take
 * it like any archive.
 */
import { zxyToTileId } from "pmtiles";

import { encodeTile, type FixtureFeature, type FixtureLayers } from "./encode-mvt";

export type Bbox = [number, number, number, number];

const HEADER_BYTES = 127;
const COMPRESSION_NONE = 1;
const TILE_TYPE_MVT = 1;

function varint(value: number, out: number[]): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

interface Entry {
  tileId: number;
  offset: number;
  length: number;
}

/** Directory encoding of the spec: count, tile-id deltas, run lengths (1), lengths, offsets. */
function encodeDirectory(entries: Entry[]): Uint8Array {
  const out: number[] = [];
  varint(entries.length, out);
  let lastId = 0;
  for (const entry of entries) {
    varint(entry.tileId - lastId, out);
    lastId = entry.tileId;
  }
  for (let i = 0; i < entries.length; i++) varint(1, out);
  for (const entry of entries) varint(entry.length, out);
  entries.forEach((entry, i) => {
    const previous = entries[i - 1];
    // 0 means "right after the previous tile"; otherwise offset + 1.
    varint(previous && entry.offset === previous.offset + previous.length ? 0 : entry.offset + 1, out);
  });
  return Uint8Array.from(out);
}

function tileRange(bbox: Bbox, z: number): { x: [number, number]; y: [number, number] } {
  const n = 2 ** z;
  const toX = (lng: number) => Math.min(n - 1, Math.max(0, Math.floor(((lng + 180) / 360) * n)));
  const toY = (lat: number) => {
    const sin = Math.sin((lat * Math.PI) / 180);
    return Math.min(n - 1, Math.max(0, Math.floor((0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * n)));
  };
  return { x: [toX(bbox[0]), toX(bbox[2])], y: [toY(bbox[3]), toY(bbox[1])] };
}

function featureBbox(feature: FixtureFeature): Bbox {
  const g = feature.geometry;
  const points = g.type === "Point" ? [g.coordinates] : g.type === "LineString" ? g.coordinates : g.coordinates.flat();
  const lngs = points.map((p) => p[0]);
  const lats = points.map((p) => p[1]);
  return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)];
}

function tileBbox(z: number, x: number, y: number): Bbox {
  const n = 2 ** z;
  const lng = (tx: number) => (tx / n) * 360 - 180;
  const lat = (ty: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * ty) / n))) * 180) / Math.PI;
  return [lng(x), lat(y + 1), lng(x + 1), lat(y)];
}

const intersects = (a: Bbox, b: Bbox) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

function setUint64(view: DataView, offset: number, value: number): void {
  view.setBigUint64(offset, BigInt(value), true);
}

/** An archive with every tile from `minZoom` to `maxZoom` that `layers` touch, within `bbox`. */
export function writePmtiles({
  layers,
  bbox,
  minZoom,
  maxZoom,
  metadata = {},
}: {
  layers: FixtureLayers;
  bbox: Bbox;
  minZoom: number;
  maxZoom: number;
  metadata?: Record<string, unknown>;
}): Uint8Array {
  const tiles: { tileId: number; data: Uint8Array }[] = [];
  for (let z = minZoom; z <= maxZoom; z++) {
    const range = tileRange(bbox, z);
    for (let x = range.x[0]; x <= range.x[1]; x++) {
      for (let y = range.y[0]; y <= range.y[1]; y++) {
        const box = tileBbox(z, x, y);
        const inTile = Object.fromEntries(Object.entries(layers).map(([name, features]) => [name, features.filter((f) => intersects(featureBbox(f), box))]));
        if (Object.values(inTile).every((features) => features.length === 0)) continue;
        tiles.push({ tileId: zxyToTileId(z, x, y), data: encodeTile(inTile, z, x, y) });
      }
    }
  }
  tiles.sort((a, b) => a.tileId - b.tileId);
  const entries: Entry[] = [];
  let offset = 0;
  for (const tile of tiles) {
    entries.push({ tileId: tile.tileId, offset, length: tile.data.length });
    offset += tile.data.length;
  }
  const directory = encodeDirectory(entries);
  const meta = new TextEncoder().encode(JSON.stringify({ vector_layers: Object.keys(layers).map((id) => ({ id, fields: {} })), ...metadata }));
  const tileBytes = offset;
  const total = HEADER_BYTES + directory.length + meta.length + tileBytes;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode("PMTiles"), 0);
  view.setUint8(7, 3);
  const rootOffset = HEADER_BYTES;
  const metaOffset = rootOffset + directory.length;
  const dataOffset = metaOffset + meta.length;
  setUint64(view, 8, rootOffset);
  setUint64(view, 16, directory.length);
  setUint64(view, 24, metaOffset);
  setUint64(view, 32, meta.length);
  setUint64(view, 40, dataOffset); // no leaf directories
  setUint64(view, 48, 0);
  setUint64(view, 56, dataOffset);
  setUint64(view, 64, tileBytes);
  setUint64(view, 72, tiles.length); // addressed tiles
  setUint64(view, 80, tiles.length); // tile entries
  setUint64(view, 88, tiles.length); // tile contents
  view.setUint8(96, 1); // clustered: tiles in tile-id order
  view.setUint8(97, COMPRESSION_NONE); // internal (directories, metadata)
  view.setUint8(98, COMPRESSION_NONE); // tiles
  view.setUint8(99, TILE_TYPE_MVT);
  view.setUint8(100, minZoom);
  view.setUint8(101, maxZoom);
  view.setInt32(102, Math.round(bbox[0] * 1e7), true);
  view.setInt32(106, Math.round(bbox[1] * 1e7), true);
  view.setInt32(110, Math.round(bbox[2] * 1e7), true);
  view.setInt32(114, Math.round(bbox[3] * 1e7), true);
  view.setUint8(118, maxZoom);
  view.setInt32(119, Math.round(((bbox[0] + bbox[2]) / 2) * 1e7), true);
  view.setInt32(123, Math.round(((bbox[1] + bbox[3]) / 2) * 1e7), true);
  out.set(directory, rootOffset);
  out.set(meta, metaOffset);
  for (const [i, tile] of tiles.entries()) out.set(tile.data, dataOffset + (entries[i]?.offset ?? 0));
  return out;
}
