/**
 * GET/HEAD /map-assets/… – the map's own files: the offline basemap under its content-hashed path
 * (offline-basemap-assets.ts) and the self-hosted PMTiles archive (serve-pmtiles.ts).
 *
 * `npm start` (scripts/server.ts) answers these before Next, because Next drops the
 * Content-Encoding of a route handler's response: a precompressed body would reach the browser
 * undecoded. Next's route handlers (app/map-assets, for `next dev`) call this with
 * `compress: false`, so they send the files as they are.
 */
import { join } from "node:path";

import { PMTILES_ARCHIVE_PATH } from "./basemap-config";
import { MAP_ASSETS_BASE_PATH, offlineAssetResponse } from "./offline-basemap-assets";
import { pmtilesResponse, type PmtilesSource } from "./serve-pmtiles";

export interface MapAssetsEnv {
  MAP_BASEMAP: "streets" | "pmtiles" | "offline";
  DATA_DIR: string;
  PMTILES_PATH?: string;
  PMTILES_URL?: string;
}

/** True when `url` (a request target: path and query) is one of the map's files. */
export function isMapAssetPath(url: string): boolean {
  return url.startsWith(`${MAP_ASSETS_BASE_PATH}/`);
}

/** The archive MAP_BASEMAP=pmtiles reads: PMTILES_URL, PMTILES_PATH or DATA_DIR/basemap.pmtiles; null otherwise. */
export function pmtilesSource(env: MapAssetsEnv): PmtilesSource | null {
  if (env.MAP_BASEMAP !== "pmtiles") return null;
  if (env.PMTILES_URL) return { kind: "url", url: env.PMTILES_URL };
  return { kind: "file", path: env.PMTILES_PATH ?? join(env.DATA_DIR, "basemap.pmtiles") };
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const notFound = () => new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

export async function mapAssetResponse(request: Request, { env, compress }: { env: MapAssetsEnv; compress: boolean }): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response("Method not allowed", { status: 405, headers: { allow: "GET, HEAD", "cache-control": "no-store" } });
  }
  const { pathname } = new URL(request.url);
  if (pathname === PMTILES_ARCHIVE_PATH) {
    return pmtilesResponse({ source: pmtilesSource(env), range: request.headers.get("range"), method: request.method });
  }
  const [version, ...rest] = pathname.slice(MAP_ASSETS_BASE_PATH.length + 1).split("/");
  const parts = rest.map(decodeSegment);
  if (!version || parts.length === 0 || parts.some((part) => part === null || part === "" || part === "." || part === "..")) return notFound();
  const response = await offlineAssetResponse({ version, name: parts.join("/"), acceptEncoding: compress ? request.headers.get("accept-encoding") : null });
  return request.method === "HEAD" ? new Response(null, { status: response.status, headers: response.headers }) : response;
}
