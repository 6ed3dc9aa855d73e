import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

import { IMMUTABLE_CACHE_CONTROL } from "@/lib/http/content-encoding";
import { offlineAssetResponse, offlineBasemapAssets } from "./offline-basemap-assets";

const GLYPHS = "fonts/Inter Regular/0-255.pbf";
const glyphFile = join(process.cwd(), "public", "basemap", GLYPHS);

function tinyBasemap(glyphs: string): string {
  const dir = mkdtempSync(join(tmpdir(), "basemap-assets-"));
  mkdirSync(join(dir, "fonts", "Inter Regular"), { recursive: true });
  writeFileSync(join(dir, "places.geojson"), '{"type":"FeatureCollection","features":[]}');
  writeFileSync(join(dir, "fonts", "Inter Regular", "0-255.pbf"), glyphs);
  writeFileSync(join(dir, "notes.md"), "not served");
  return dir;
}

describe("offlineBasemapAssets", () => {
  it("lists the bundled basemap's glyphs and GeoJSON under a version that is a hash of their content", () => {
    const assets = offlineBasemapAssets();
    expect(assets.version).toMatch(/^[0-9a-f]{16}$/);
    expect(assets.files.get(GLYPHS)).toBe(glyphFile);
    expect(assets.files.has("places.geojson")).toBe(true);

    const a = offlineBasemapAssets(tinyBasemap("glyphs A"));
    const b = offlineBasemapAssets(tinyBasemap("glyphs B"));
    const a2 = offlineBasemapAssets(tinyBasemap("glyphs A"));
    expect(a.version).not.toBe(b.version);
    expect(a2.version).toBe(a.version);
    expect([...a.files.keys()].sort()).toEqual([GLYPHS, "places.geojson"]);
  });
});

describe("offlineAssetResponse", () => {
  const { version } = offlineBasemapAssets();
  const raw = readFileSync(glyphFile);

  it("serves a glyph range compressed with brotli, as protobuf, cacheable for a year", async () => {
    const res = await offlineAssetResponse({ version, name: GLYPHS, acceptEncoding: "gzip, deflate, br" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-protobuf");
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("cache-control")).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    const body = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(body.length);
    expect(body.length).toBeLessThan(raw.length * 0.8);
    expect(brotliDecompressSync(body).equals(raw)).toBe(true);
  });

  it("falls back to gzip, then to the file as it is", async () => {
    const gz = await offlineAssetResponse({ version, name: GLYPHS, acceptEncoding: "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(raw)).toBe(true);
    const plain = await offlineAssetResponse({ version, name: "places.geojson", acceptEncoding: null });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("content-type")).toBe("application/geo+json");
    expect(JSON.parse(await plain.text())).toMatchObject({ type: "FeatureCollection" });
  });

  it("refuses another version, unknown files and paths out of the folder", async () => {
    for (const [v, name] of [
      ["0000000000000000", GLYPHS],
      [version, "fonts/Inter Regular/9999-10000.pbf"],
      [version, "../../package.json"],
      [version, "LICENSE-places.md"],
    ] as const) {
      const res = await offlineAssetResponse({ version: v, name, acceptEncoding: "br" });
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });
});
