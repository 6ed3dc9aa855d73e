// A background worker process for scaled-out deployments: N web instances + M of these, all on
// one PostgreSQL. The embedded PGlite is single-process, so there the app runs its worker itself.
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { getRuntime } from "@/lib/service/runtime";

if (!env.DATABASE_URL) {
  console.error("npm run worker needs DATABASE_URL: with the embedded database the app runs its own worker.");
  process.exit(2);
}
const runtime = await getRuntime();
log.info("worker running; Ctrl-C to stop");
const stop = async () => {
  await runtime.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
