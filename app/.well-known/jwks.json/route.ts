// Serves the token signing keys (JWKS) of the service (lib/service/http/routes/discovery.ts) at the origin.
import { getRuntime } from "@/lib/runtime/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  const { app } = await getRuntime({ trustProxy: true });
  return app.fetch(request);
}

export { handle as GET, handle as HEAD };
