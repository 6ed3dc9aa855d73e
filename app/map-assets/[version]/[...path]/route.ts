// GET /map-assets/<version>/<file> – the offline basemap's files, compressed, cached for a year
// under a content-hashed path (lib/map/offline-basemap-assets.ts).
import { offlineAssetResponse } from "@/lib/map/offline-basemap-assets";

export const runtime = "nodejs";

/** Next hands catch-all segments over decoded; decode again only what still looks encoded. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

async function handle(request: Request, { params }: { params: Promise<{ version: string; path: string[] }> }): Promise<Response> {
  const { version, path } = await params;
  return offlineAssetResponse({ version, name: path.map(decodeSegment).join("/"), acceptEncoding: request.headers.get("accept-encoding") });
}

export { handle as GET };
