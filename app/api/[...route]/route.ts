// Mounts the REST service (lib/service) inside Next: /api/v1, /api/admin/v1, /api/health.
import { getRuntime } from "@/lib/runtime/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  // Next is the proxy in front of the service here, so X-Forwarded-For is trusted.
  const { app } = await getRuntime({ trustProxy: true });
  return app.fetch(request);
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as HEAD, handle as OPTIONS };
