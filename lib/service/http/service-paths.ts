// The paths the REST service answers, for a server that puts it in front of Next (scripts/server.ts):
// everything else (pages, next-auth under /api/auth, the field app's routes, static files) is Next's.
import { ADMIN_BASE_PATH, API_BASE_PATH, CDN_BASE_PATH, ORDERS_BASE_PATH } from "@/lib/service/context";

const PREFIXES = [API_BASE_PATH, ORDERS_BASE_PATH, ADMIN_BASE_PATH, CDN_BASE_PATH].map((p) => `${p}/`);
const EXACT = new Set([API_BASE_PATH, ORDERS_BASE_PATH, ADMIN_BASE_PATH, "/api/health", "/api/ready", "/api/metrics"]);

/** True when `url` (a request target: path and query) belongs to the REST service. */
export function isServicePath(url: string): boolean {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  return EXACT.has(path) || PREFIXES.some((prefix) => path.startsWith(prefix));
}
