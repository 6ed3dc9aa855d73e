// `npm start`: one process, one port. Requests for the REST service (mission, order and operator
// interfaces, the CDN, health, readiness, metrics) go straight to the service's listener (its
// direct reads, then the Hono app: lib/service/http/listener.ts), as in `npm run start:api`; the
// map's files (/map-assets/) go to their own handler, which sends them precompressed (Next would drop their Content-Encoding); Next's built scripts and styles
// (/_next/static/) are sent as the compressed copies `npm run build` made (lib/http/next-static.ts);
// everything else goes to Next (pages, next-auth, the field app, the dashboard's proxy, which may
// pass a body the service compressed through Next: lib/http/encoding-bridge.ts). Routing the API
// through Next's route handlers instead costs most of its throughput (docs/benchmarks.md).
// The service runtime is started before Next, so Next's own handlers (instrumentation, the
// dashboard's in-process API client, field actions) find it on globalThis and share it: one
// database connection, one worker. On SIGTERM: stop taking connections, drain, stop the service;
// a SIGTERM while it starts waits for the database, then stops it without preparing Next or listening.
import "@/lib/runtime/v8-tuning"; // first: V8 settings before anything else loads
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import next from "next";
import { env } from "@/lib/env";
import { bridgeEncoding } from "@/lib/http/encoding-bridge";
import { settleMessageShapes } from "@/lib/http/message-shapes";
import { dropUntrustedForwardedHeaders } from "@/lib/http/forwarded-headers";
import { isNextStaticPath, nextStaticDir, nextStaticFile } from "@/lib/http/next-static";
import { log } from "@/lib/log";
import { isMapAssetPath, mapAssetResponse } from "@/lib/map/map-assets-handler";
import { closeServer, exitOnTermination } from "@/lib/service/graceful-shutdown";
import { isServicePath } from "@/lib/service/http/service-paths";
import { getRuntime, type ServiceRuntime } from "@/lib/runtime/runtime";

// Clients connect to this process directly: X-Forwarded-For is trusted only when TRUST_PROXY says
// a proxy of ours is in front (the runtime's default), never because Next would have added it.
const starting = getRuntime({ trustProxy: env.TRUST_PROXY });
// Next after the service, so its handlers find the runtime started; not at all when a signal came first.
const preparing = starting.then(async () => {
  if (termination.requested) return undefined;
  const app = next({ dev: false, dir: process.cwd(), hostname: "0.0.0.0", port: env.PORT });
  await app.prepare();
  return app;
});
let server: Server | undefined;

// Installed before the start finishes: a SIGTERM while the database opens (a deploy, a supervisor,
// Ctrl-C) is a stop like any other, not a kill with the database open.
const termination = exitOnTermination(
  "server",
  async () => {
    const [runtime, nextApp] = await Promise.all([starting, preparing]);
    if (server) {
      const drained = await closeServer(server, env.SHUTDOWN_TIMEOUT_MS);
      if (!drained) log.warn("server: requests still open at the deadline were cut");
    }
    await nextApp?.close();
    await runtime.stop();
  },
  { timeoutMs: env.SHUTDOWN_TIMEOUT_MS },
);

const [runtime, nextApp] = await Promise.all([starting, preparing]);
if (nextApp && !termination.requested) {
  server = createServer(routeRequests(runtime, nextApp));
  server.listen(env.PORT, "0.0.0.0", () => log.info("listening (REST service and Next on one port)", { url: `http://localhost:${env.PORT}` }));
  void settleMessageShapes(server, { path: "/api/health" });
}

/** Each request to the service, the map's files, Next's built files or Next itself. */
function routeRequests(runtime: ServiceRuntime, nextApp: ReturnType<typeof next>): RequestListener {
  const handleWithNext = nextApp.getRequestHandler();
  const handleWithService = runtime.listener;
  const handleMapAsset = getRequestListener((request: Request) => mapAssetResponse(request, { env, compress: true }));
  const staticDir = nextStaticDir(process.cwd());

  function sendToNext(req: IncomingMessage, res: ServerResponse): void {
    // A server action's CSRF check compares Origin with X-Forwarded-Host: only a proxy of ours may set it.
    dropUntrustedForwardedHeaders(req.headers, env.TRUST_PROXY);
    handleWithNext(req, res).catch((error: unknown) => {
      log.error("next request failed", { path: req.url?.split("?")[0] }, error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end("Internal Server Error");
    });
  }

  /** A built file with its precompressed copy when there is one; Next answers the rest. */
  async function serveNextStatic(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const file = await nextStaticFile({ method: req.method ?? "GET", url: req.url ?? "/", acceptEncoding: req.headers["accept-encoding"] ?? null }, staticDir);
    if (!file) {
      sendToNext(req, res);
      return;
    }
    res.writeHead(200, file.headers);
    res.end(file.body ?? undefined);
  }

  return (req, res) => {
    if (isServicePath(req.url ?? "/")) {
      handleWithService(req, res);
      return;
    }
    if (isMapAssetPath(req.url ?? "/")) {
      void handleMapAsset(req, res);
      return;
    }
    if (isNextStaticPath(req.url ?? "/")) {
      void serveNextStatic(req, res);
      return;
    }
    // The dashboard's proxy passes the service's compressed map points through (encoding-bridge.ts).
    if (req.url?.startsWith("/dashboard-api/")) bridgeEncoding(req, res);
    sendToNext(req, res);
  };
}
