// Serves the REST service on its own (no Next): the API tier of a scaled-out deployment, with
// the same routes, database and settings as the app mounted in Next. On SIGTERM it stops taking
// connections, lets requests in flight finish (uploads, exports) within SHUTDOWN_TIMEOUT_MS, then
// stops its background work and closes the database.
import "@/lib/runtime/v8-tuning"; // first: V8 settings before anything else loads
import { createServer } from "node:http";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { closeServer, exitOnTermination } from "@/lib/service/graceful-shutdown";
import { getRuntime } from "@/lib/runtime/runtime";

const runtime = await getRuntime();
const server = createServer(runtime.listener);
server.listen(env.PORT, "0.0.0.0", () => log.info("api server listening", { url: `http://localhost:${env.PORT}` }));

exitOnTermination(
  "api server",
  async () => {
    const drained = await closeServer(server, env.SHUTDOWN_TIMEOUT_MS);
    if (!drained) log.warn("api server: requests still open at the deadline were cut");
    await runtime.stop();
  },
  { timeoutMs: env.SHUTDOWN_TIMEOUT_MS },
);
