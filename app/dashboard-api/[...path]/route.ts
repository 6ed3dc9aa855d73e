// The browser's read path into the API: session-guarded, GET only, an allow-list of resources,
// each with the least role it needs. The organisation's token is added here, on the server; the
// browser only ever sees the API's JSON, GeoJSON and ZIP bodies.
import { roleAtLeast, type Role } from "@/lib/auth/roles";
import { apiFetch } from "@/lib/api-client/client";
import { getDashboardAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";
import { ENCODED_BODY_HEADER, PASS_ENCODING_HEADER } from "@/lib/http/encoding-bridge";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const ID = "[A-Za-z0-9_]{1,64}";
/** Each resource, the least role it needs, and the interface it belongs to (the mission interface unless said). */
const ROUTES: { pattern: RegExp; least: Role; base?: "/api/orders/v1" }[] = [
  // The mission editor snaps to the organisation's other missions in view (?bbox=…).
  { pattern: /^missions$/, least: "viewer" },
  { pattern: new RegExp(`^missions/${ID}$`), least: "viewer" },
  { pattern: new RegExp(`^missions/${ID}/submissions$`), least: "viewer" },
  { pattern: new RegExp(`^missions/${ID}/submission-points$`), least: "viewer" },
  { pattern: new RegExp(`^missions/${ID}/export$`), least: "viewer" },
  { pattern: new RegExp(`^submissions/${ID}$`), least: "viewer" },
  { pattern: /^webhooks$/, least: "admin" },
  { pattern: new RegExp(`^webhooks/${ID}(/deliveries(/${ID})?)?$`), least: "admin" },
  { pattern: new RegExp(`^orders/${ID}/photos\\.zip$`), least: "viewer", base: "/api/orders/v1" },
];

const PASSED_REQUEST_HEADERS = ["accept", "if-none-match", "range"];
const PASSED_RESPONSE_HEADERS = [
  "content-type",
  "content-length",
  "content-disposition",
  "etag",
  "cache-control",
  "last-modified",
  "accept-ranges",
  "content-range",
  "retry-after",
];

function problem(status: number, code: string, detail: string): Response {
  return Response.json({ type: "about:blank", title: code, status, code, detail }, { status, headers: { "content-type": "application/problem+json" } });
}

export async function GET(request: Request, { params }: { params: Promise<{ path: string[] }> }): Promise<Response> {
  const access = await getDashboardAccess();
  if (!access) return problem(401, "unauthenticated", "Your session has ended. Sign in again.");
  const path = (await params).path.join("/");
  const route = ROUTES.find((r) => r.pattern.test(path));
  if (!route) return problem(404, "not_found", "No such dashboard resource.");
  if (!roleAtLeast(access.role, route.least)) return problem(403, "forbidden", "Your role does not allow this.");

  const headers = new Headers();
  for (const name of PASSED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  // Under `npm start` (scripts/server.ts) a body the service compressed goes through as it is:
  // Next drops a route handler's Content-Encoding, so it travels in ENCODED_BODY_HEADER and the
  // server restores it. Only with the service in this process: over API_INTERNAL_URL, fetch has
  // already decoded the body.
  const passEncoding = request.headers.get(PASS_ENCODING_HEADER) === "gzip" && !env.API_INTERNAL_URL;
  if (passEncoding) headers.set("accept-encoding", "gzip");
  const search = new URL(request.url).search;
  const upstream = await apiFetch(access.holder, `${route.base ?? "/api/v1"}/${path}${search}`, { headers, signal: request.signal });
  const out = new Headers({ "cache-control": "private, no-store" });
  for (const name of PASSED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value) out.set(name, value);
  }
  const encoding = upstream.headers.get("content-encoding");
  if (passEncoding && encoding) {
    out.set(ENCODED_BODY_HEADER, encoding);
    out.set("vary", "Accept-Encoding");
  }
  return new Response(upstream.body, { status: upstream.status, headers: out });
}
