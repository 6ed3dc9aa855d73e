// The service on a Node server: its direct reads first (direct-reads.ts), the Hono app for
// everything else. Used by `npm start`, `npm run start:api` and the API tests' servers.
import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { ServiceContext } from "@/lib/service/context";
import type { ServiceMetrics } from "@/lib/service/metrics/service-metrics";
import type { ServiceApp } from "./app";
import { checkDirectReads, createDirectReads } from "./direct-reads";

export type ServiceListener = (req: IncomingMessage, res: ServerResponse) => void;

export function createServiceListener({ ctx, app, metrics }: { ctx: ServiceContext; app: ServiceApp; metrics: ServiceMetrics }): ServiceListener {
  checkDirectReads(app.routes);
  const direct = createDirectReads(ctx, metrics);
  const viaApp = getRequestListener(app.fetch);
  return (req, res) => {
    if (!direct(req, res)) void viaApp(req, res);
  };
}
