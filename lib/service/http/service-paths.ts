// The paths the REST service answers, for a server that puts it in front of Next (scripts/server.ts):
// everything else (pages, next-auth under /api/auth, the field app's routes, static files) is Next's.
// The OAuth metadata and the keys at the origin's well-known addresses are the service's too: Next's
// route handlers for them (app/.well-known) serve `npm run dev`, and took 2–3 ms a call where the
// service answers in under half a millisecond (api-walk, docs/benchmarks.md).
import { ADMIN_BASE_PATH, API_BASE_PATH, CDN_BASE_PATH, ORDERS_BASE_PATH } from "@/lib/service/context";
import { WELL_KNOWN_JWKS_PATH, WELL_KNOWN_METADATA_PATH } from "./routes/discovery";

const PREFIXES = [API_BASE_PATH, ORDERS_BASE_PATH, ADMIN_BASE_PATH, CDN_BASE_PATH].map((p) => `${p}/`);
const EXACT = new Set([
  API_BASE_PATH,
  ORDERS_BASE_PATH,
  ADMIN_BASE_PATH,
  "/api/health",
  "/api/ready",
  "/api/metrics",
  WELL_KNOWN_METADATA_PATH,
  WELL_KNOWN_JWKS_PATH,
]);

/** True when `url` (a request target: path and query) belongs to the REST service. */
export function isServicePath(url: string): boolean {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  return EXACT.has(path) || PREFIXES.some((prefix) => path.startsWith(prefix));
}
