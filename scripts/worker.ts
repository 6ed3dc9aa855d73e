// A background worker process for scaled-out deployments: N web instances + M of these, all on
// one PostgreSQL. The embedded PGlite is single-process, so there the app runs its worker itself.
// It always runs background work, whatever RUN_WORKER says (that variable is for web instances,
// and a shared env file sets it to false for them). It exits non-zero when it cannot work — no
// DATABASE_URL, the database unreachable at start, or its heartbeat failing for about a minute —
// so a supervisor restarts it. SIGTERM lets jobs in flight finish within SHUTDOWN_TIMEOUT_MS.
import "@/lib/runtime/v8-tuning"; // first: V8 settings before anything else loads
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { exitOnTermination } from "@/lib/service/graceful-shutdown";
import { startRuntime } from "@/lib/runtime/runtime";

if (!env.DATABASE_URL) {
  console.error("npm run worker needs DATABASE_URL: with the embedded database the app runs its own worker.");
  process.exit(2);
}
const starting = startRuntime(env, {
  runWorker: true,
  onHeartbeatLost: (error) => {
    log.error("worker: the database has not answered for a minute; exiting so the supervisor restarts it", {}, error);
    process.exit(1);
  },
}).catch((error: unknown) => {
  log.error("worker could not start", {}, error);
  process.exit(1);
});
// Before the start finishes: the worker stamps its heartbeat while starting, and a SIGTERM then
// (a deploy, a supervisor) must stop it cleanly — heartbeat removed, exit 0 — not kill it.
exitOnTermination("worker", async () => (await starting).stop(), { timeoutMs: env.SHUTDOWN_TIMEOUT_MS });
await starting;
log.info("worker running; Ctrl-C to stop");
