// Serves the REST service on its own (no Next): the API tier of a scaled-out deployment, with
// the same routes, database and settings as the app mounted in Next. On SIGTERM it stops taking
// connections, lets requests in flight finish (uploads, exports) within SHUTDOWN_TIMEOUT_MS, then
// stops its background work and closes the database. A SIGTERM while it starts (a deploy, a
// supervisor) waits for the start, then stops the same way without listening.
import "@/lib/runtime/v8-tuning"; // first: V8 settings before anything else loads
import { createServer, type Server } from "node:http";
import { settleMessageShapes } from "@/lib/http/message-shapes";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { closeServer, exitOnTermination } from "@/lib/service/graceful-shutdown";
import { getRuntime } from "@/lib/runtime/runtime";

const starting = getRuntime();
let server: Server | undefined;

const termination = exitOnTermination(
  "api server",
  async () => {
    const started = await starting;
    if (server) {
      const drained = await closeServer(server, env.SHUTDOWN_TIMEOUT_MS);
      if (!drained) log.warn("api server: requests still open at the deadline were cut");
    }
    await started.stop();
  },
  { timeoutMs: env.SHUTDOWN_TIMEOUT_MS },
);

const runtime = await starting;
if (!termination.requested) {
  server = createServer(runtime.listener);
  server.listen(env.PORT, "0.0.0.0", () => log.info("api server listening", { url: `http://localhost:${env.PORT}` }));
  void settleMessageShapes(server, { path: "/api/health" });
}
