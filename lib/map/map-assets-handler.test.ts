import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

import { isMapAssetPath, mapAssetResponse, pmtilesSource } from "./map-assets-handler";
import { offlineBasemapAssets } from "./offline-basemap-assets";

const ORIGIN = "http://localhost:3000";
const dataDir = mkdtempSync(join(tmpdir(), "map-assets-"));
writeFileSync(
  join(dataDir, "basemap.pmtiles"),
  Uint8Array.from({ length: 300 }, (_, i) => i % 256),
);
const offline = { MAP_BASEMAP: "offline" as const, DATA_DIR: dataDir };
const pmtiles = { MAP_BASEMAP: "pmtiles" as const, DATA_DIR: dataDir };
const { version } = offlineBasemapAssets();

const get = (path: string, init: RequestInit = {}) => new Request(`${ORIGIN}${path}`, init);

describe("isMapAssetPath", () => {
  it("claims /map-assets/ only", () => {
    expect(isMapAssetPath(`/map-assets/${version}/places.geojson`)).toBe(true);
    expect(isMapAssetPath("/map-assets/basemap.pmtiles?x=1")).toBe(true);
    expect(isMapAssetPath("/map-assets")).toBe(false);
    expect(isMapAssetPath("/missions/map-assets/x")).toBe(false);
  });
});

describe("pmtilesSource", () => {
  it("reads the archive only with MAP_BASEMAP=pmtiles: PMTILES_URL, PMTILES_PATH or DATA_DIR/basemap.pmtiles", () => {
    expect(pmtilesSource(offline)).toBeNull();
    expect(pmtilesSource(pmtiles)).toEqual({ kind: "file", path: join(dataDir, "basemap.pmtiles") });
    expect(pmtilesSource({ ...pmtiles, PMTILES_PATH: "/srv/europe.pmtiles" })).toEqual({ kind: "file", path: "/srv/europe.pmtiles" });
    expect(pmtilesSource({ ...pmtiles, PMTILES_URL: "https://bucket.example.com/europe.pmtiles" })).toEqual({
      kind: "url",
      url: "https://bucket.example.com/europe.pmtiles",
    });
  });
});

describe("mapAssetResponse", () => {
  it("serves an offline file, encoded when asked to compress and as it is when not", async () => {
    const glyphs = `/map-assets/${version}/fonts/Inter%20Bold/0-255.pbf`;
    const compressed = await mapAssetResponse(get(glyphs, { headers: { "accept-encoding": "gzip" } }), { env: offline, compress: true });
    expect(compressed.headers.get("content-encoding")).toBe("gzip");
    const plain = await mapAssetResponse(get(glyphs, { headers: { "accept-encoding": "gzip" } }), { env: offline, compress: false });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(gunzipSync(Buffer.from(await compressed.arrayBuffer())).equals(Buffer.from(await plain.arrayBuffer()))).toBe(true);
  });

  it("answers HEAD without a body and refuses other methods, odd paths and a stale version", async () => {
    const head = await mapAssetResponse(get(`/map-assets/${version}/places.geojson`, { method: "HEAD" }), { env: offline, compress: true });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect((await mapAssetResponse(get(`/map-assets/${version}/places.geojson`, { method: "POST" }), { env: offline, compress: true })).status).toBe(405);
    for (const path of [
      `/map-assets/${version}`,
      `/map-assets/${version}/`,
      `/map-assets/${version}/fonts/%E0%A4%A.pbf`,
      "/map-assets/0000000000000000/places.geojson",
    ]) {
      expect((await mapAssetResponse(get(path), { env: offline, compress: true })).status, path).toBe(404);
    }
  });

  it("serves the PMTiles archive by ranges only when MAP_BASEMAP=pmtiles", async () => {
    const range = { headers: { range: "bytes=0-126" } };
    expect((await mapAssetResponse(get("/map-assets/basemap.pmtiles", range), { env: offline, compress: true })).status).toBe(404);
    const res = await mapAssetResponse(get("/map-assets/basemap.pmtiles", range), { env: pmtiles, compress: true });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe("bytes 0-126/300");
    expect((await res.arrayBuffer()).byteLength).toBe(127);
  });
});
