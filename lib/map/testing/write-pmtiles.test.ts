import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PbfReader } from "pbf";
import { PMTiles, TileType, type RangeResponse, type Source } from "pmtiles";
import { describe, expect, it } from "vitest";

import { pmtilesResponse } from "../serve-pmtiles";
import { projectToTile } from "./encode-mvt";
import { streetGrid } from "./street-grid";
import { writePmtiles, type Bbox } from "./write-pmtiles";

const BBOX: Bbox = [11.22, 43.755, 11.29, 43.785];

/** Reads the archive as the browser does: byte ranges over our serving code. */
class ServedSource implements Source {
  ranges: string[] = [];
  constructor(private readonly path: string) {}
  getKey() {
    return this.path;
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const range = `bytes=${offset}-${offset + length - 1}`;
    this.ranges.push(range);
    const res = await pmtilesResponse({ source: { kind: "file", path: this.path }, range });
    expect(res.status).toBe(206);
    return { data: await res.arrayBuffer(), etag: res.headers.get("etag") ?? undefined };
  }
}

function layerNames(tile: ArrayBuffer): string[] {
  const names: string[] = [];
  new PbfReader(new Uint8Array(tile)).readFields((tag, _, pbf) => {
    if (tag !== 3 || !pbf) return;
    const end = pbf.readVarint() + pbf.pos;
    while (pbf.pos < end) {
      const value = pbf.readVarint();
      const [field, wire] = [value >> 3, value & 7];
      if (field === 1) names.push(pbf.readString());
      else pbf.skip(wire);
    }
  }, null);
  return names;
}

describe("writePmtiles", () => {
  const dir = mkdtempSync(join(tmpdir(), "pmtiles-fixture-"));
  const path = join(dir, "basemap.pmtiles");
  writeFileSync(path, writePmtiles({ layers: streetGrid(BBOX), bbox: BBOX, minZoom: 10, maxZoom: 15 }));

  it("writes an archive the pmtiles reader takes, read through our Range responses", async () => {
    const source = new ServedSource(path);
    const archive = new PMTiles(source);
    const header = await archive.getHeader();
    expect(header).toMatchObject({ specVersion: 3, minZoom: 10, maxZoom: 15, tileType: TileType.Mvt });
    expect(header.minLon).toBeCloseTo(BBOX[0], 5);
    expect(header.maxLat).toBeCloseTo(BBOX[3], 5);
    expect(await archive.getMetadata()).toMatchObject({ vector_layers: expect.arrayContaining([{ id: "roads", fields: {} }]) });
    expect(source.ranges.length).toBeGreaterThan(0);
  });

  it("holds the streets of every zoom over the area, and nothing outside it", async () => {
    const archive = new PMTiles(new ServedSource(path));
    const centre: [number, number] = [(BBOX[0] + BBOX[2]) / 2, (BBOX[1] + BBOX[3]) / 2];
    for (const z of [10, 13, 15]) {
      const n = 2 ** z;
      const [px, py] = projectToTile(centre, z, 0, 0).map((v) => Math.floor(v / 4096)) as [number, number];
      expect(px).toBeLessThan(n);
      const tile = await archive.getZxy(z, px, py);
      expect(tile, `tile ${z}/${px}/${py}`).toBeDefined();
      const names = layerNames(tile?.data ?? new ArrayBuffer(0));
      expect(names).toEqual(expect.arrayContaining(["earth", "roads", "buildings", "water"]));
    }
    // The park lies off the centre, in its own tile.
    const park = streetGrid(BBOX).landuse?.[0]?.geometry;
    const parkCorner = park?.type === "Polygon" ? park.coordinates[0]?.[0] : undefined;
    if (!parkCorner) throw new Error("the grid has a park");
    const [x, y] = projectToTile(parkCorner, 13, 0, 0).map((v) => Math.floor(v / 4096)) as [number, number];
    expect(layerNames((await archive.getZxy(13, x, y))?.data ?? new ArrayBuffer(0))).toContain("landuse");
    expect(await archive.getZxy(15, 0, 0)).toBeUndefined();
    expect(await archive.getZxy(9, 272, 186)).toBeUndefined();
  });
});
