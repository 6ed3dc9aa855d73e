// GET /map-assets/basemap.pmtiles – the self-hosted basemap archive, by byte ranges
// (lib/map/serve-pmtiles.ts); 404 unless MAP_BASEMAP=pmtiles.
import { join } from "node:path";

import { env } from "@/lib/env";
import { pmtilesResponse, type PmtilesSource } from "@/lib/map/serve-pmtiles";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function configuredSource(): PmtilesSource | null {
  if (env.MAP_BASEMAP !== "pmtiles") return null;
  if (env.PMTILES_URL) return { kind: "url", url: env.PMTILES_URL };
  return { kind: "file", path: env.PMTILES_PATH ?? join(env.DATA_DIR, "basemap.pmtiles") };
}

async function handle(request: Request): Promise<Response> {
  return pmtilesResponse({ source: configuredSource(), range: request.headers.get("range"), method: request.method });
}

export { handle as GET, handle as HEAD };
