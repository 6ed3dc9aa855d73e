/**
 * Serves the bundled offline basemap (public/basemap: GeoJSON, glyph ranges) under a
 * content-hashed path, /map-assets/<version>/…, compressed and cacheable for a year: the version
 * is a hash of every file, so a new basemap gets new URLs and a cached one is never stale.
 * Next's static file handler serves public/ with max-age=0 and sends the .pbf glyph ranges as
 * uncompressed octet-stream; this serves them with brotli or gzip and a real content type.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlibConstants, gzip } from "node:zlib";
import { IMMUTABLE_CACHE_CONTROL, pickEncoding, type Encoding } from "@/lib/http/content-encoding";

export const MAP_ASSETS_BASE_PATH = "/map-assets";

/** A year, the longest lifetime browsers honour; `immutable` spares revalidation on reload. */

const CONTENT_TYPES: Record<string, string> = {
  ".geojson": "application/geo+json",
  ".pbf": "application/x-protobuf",
  ".txt": "text/plain; charset=utf-8",
};

interface AssetSet {
  version: string;
  /** Relative path with forward slashes (as in the URL, decoded) → absolute file path. */
  files: Map<string, string>;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listFiles(path) : [path];
  });
}

const assetSets = new Map<string, AssetSet>();

/** The asset set of `dir` (public/basemap by default), read and hashed once per process. */
export function offlineBasemapAssets(dir: string = join(process.cwd(), "public", "basemap")): AssetSet {
  const known = assetSets.get(dir);
  if (known) return known;
  const hash = createHash("sha256");
  const files = new Map<string, string>();
  for (const path of listFiles(dir).sort()) {
    const name = relative(dir, path).split(sep).join("/");
    const extension = name.slice(name.lastIndexOf("."));
    if (!(extension in CONTENT_TYPES)) continue;
    files.set(name, path);
    hash.update(name).update("\0").update(readFileSync(path)).update("\0");
  }
  const set = { version: hash.digest("hex").slice(0, 16), files };
  assetSets.set(dir, set);
  return set;
}

/** The path the browser loads the offline basemap from, e.g. "/map-assets/3f2a9c0d1b7e4a55". */
export function offlineAssetsPath(): string {
  return `${MAP_ASSETS_BASE_PATH}/${offlineBasemapAssets().version}`;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
// Each file is compressed once per process and encoding (about 2 MB in all), then served from memory.
const compressed = new Map<string, Promise<Buffer>>();

function encode(path: string, encoding: Encoding): Promise<Buffer> {
  const key = `${encoding}:${path}`;
  let body = compressed.get(key);
  if (!body) {
    const raw = readFileSync(path);
    body =
      encoding === "br"
        ? // Quality 9 of 11: within a few per cent of the best, a fraction of the time on first request.
          brotli(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
        : encoding === "gzip"
          ? gzipAsync(raw, { level: 9 })
          : Promise.resolve(raw);
    compressed.set(key, body);
  }
  return body;
}

/** The response for GET /map-assets/<version>/<name>: 404 for another version or an unknown file. */
export async function offlineAssetResponse({
  version,
  name,
  acceptEncoding,
  assets = offlineBasemapAssets(),
}: {
  version: string;
  name: string;
  acceptEncoding: string | null;
  assets?: AssetSet;
}): Promise<Response> {
  const path = version === assets.version ? assets.files.get(name) : undefined;
  if (path === undefined) {
    return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  }
  const encoding = pickEncoding(acceptEncoding);
  const body = await encode(path, encoding);
  const headers: Record<string, string> = {
    "content-type": CONTENT_TYPES[name.slice(name.lastIndexOf("."))] ?? "application/octet-stream",
    "content-length": String(body.length),
    "cache-control": IMMUTABLE_CACHE_CONTROL,
    vary: "Accept-Encoding",
    etag: `"${assets.version}-${encoding}"`,
    "x-content-type-options": "nosniff",
    // The map's worker fetches these; nothing else may embed them.
    "cross-origin-resource-policy": "same-origin",
  };
  if (encoding !== "identity") headers["content-encoding"] = encoding;
  return new Response(new Uint8Array(body), { status: 200, headers });
}
