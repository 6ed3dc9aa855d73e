// Serves the REST service on its own (no Next): the API tier of a scaled-out deployment, with
// the same routes, database and settings as the app mounted in Next.
import { serve } from "@hono/node-server";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { getRuntime } from "@/lib/service/runtime";

const runtime = await getRuntime();
const server = serve({ fetch: runtime.app.fetch, port: env.PORT, hostname: "0.0.0.0" }, (info) => {
  log.info("api server listening", { url: `http://localhost:${info.port}` });
});

async function shutdown(signal: string) {
  log.info("api server shutting down", { signal });
  server.close();
  await runtime.stop();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
