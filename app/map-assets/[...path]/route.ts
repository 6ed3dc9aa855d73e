// The map's files under `next dev` (lib/map/map-assets-handler.ts); `npm start` answers
// /map-assets/ before Next, compressed. Here they go out as they are: Next would drop the
// Content-Encoding of a precompressed body.
import { env } from "@/lib/env";
import { mapAssetResponse } from "@/lib/map/map-assets-handler";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function handle(request: Request): Promise<Response> {
  return mapAssetResponse(request, { env, compress: false });
}

export { handle as GET, handle as HEAD };
