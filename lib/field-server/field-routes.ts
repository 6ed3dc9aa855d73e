// The field page's one way to the service, its rules (no I/O here; lib/field-server/forward.ts
// sends): which /field/api/… paths the page may reach, with which methods, which service path
// each one stands for, and which headers and query parameters go through. Anything not on the
// list is answered here, 404 for a path and 405 for a method, and never reaches the service.
//
// The phone's scripts hold no token (it is in an httpOnly cookie), so the page's requests —
// tus-js-client's, the multipart posts of the page and its service worker, the lists and the
// verdict polls — come to /field/api/… and are passed on with the zoomer's token
// (lib/field-server/session.ts `fieldFetch`). The tus upload URL the service hands out (Location) is
// rewritten to the page's path, so every later HEAD and PATCH comes back through here too.
import { ApiError, PROBLEM_CONTENT_TYPE } from "@/lib/service/errors";

/** Where the page's requests arrive (app/field/api/[...path]/route.ts). */
export const FIELD_API_PATH = "/field/api";

type Method = "GET" | "HEAD" | "POST" | "PATCH" | "DELETE" | "OPTIONS";

interface FieldRoute {
  /** The page's path below /field/api, `:id` for one id segment. */
  page: string;
  methods: readonly Method[];
  /** The service's path for it; `:id` is the page's id, as it was. */
  service: string;
  /** The query parameters passed on (any other is dropped). */
  query?: readonly string[];
  /** A tus route: the tus headers go both ways and Location is rewritten to the page's path. */
  tus?: true;
}

/** Every path the field page may reach, and how. */
export const FIELD_ROUTES: readonly FieldRoute[] = [
  // tus 1.0.0 (creation, creation-with-upload, termination; OPTIONS is discovery).
  { page: "uploads", methods: ["POST", "OPTIONS"], service: "/api/v1/field/uploads", tus: true },
  { page: "uploads/:id", methods: ["HEAD", "PATCH", "DELETE", "GET"], service: "/api/v1/field/uploads/:id", tus: true },
  // Multipart photo posts, streamed: a mission's submission, an order task's photo.
  { page: "missions/:id/submissions", methods: ["POST"], service: "/api/v1/missions/:id/submissions" },
  { page: "assignments/:id/photo", methods: ["POST"], service: "/api/v1/field/assignments/:id/photo" },
  // What the page lists and polls.
  { page: "missions", methods: ["GET"], service: "/api/v1/field/missions", query: ["lat", "lng", "radius_km"] },
  { page: "assignments", methods: ["GET"], service: "/api/v1/field/assignments", query: ["lat", "lng", "radius_km", "limit"] },
  { page: "assignments/:id", methods: ["GET"], service: "/api/v1/field/assignments/:id" },
  { page: "submissions/:id", methods: ["GET"], service: "/api/v1/field/submissions/:id" },
  // Reserving an order task and giving it back.
  { page: "assignments/:id/take", methods: ["POST"], service: "/api/v1/field/assignments/:id/take" },
  { page: "assignments/:id/release", methods: ["POST"], service: "/api/v1/field/assignments/:id/release" },
];

// One id segment as the page sends it: the service's ids (`upl_…`, `mis_…`, `asg_…`, `sub_…`) and
// nothing a URL could read as more than one segment — no dot segments, no percent-encoding.
const ID_SEGMENT = /^[A-Za-z0-9_-]{1,100}$/;

const TUS_REQUEST_HEADERS = ["tus-resumable", "upload-length", "upload-metadata", "upload-offset", "upload-defer-length"];
const REQUEST_HEADERS = ["content-type", "x-request-id"];
// Never passed back to the phone: the service's cookies (it sets none) and hop-by-hop headers.
const DROPPED_RESPONSE_HEADERS = ["set-cookie", "connection", "keep-alive", "transfer-encoding"];

export type FieldPlan =
  { kind: "refused"; response: Response } | { kind: "forward"; route: FieldRoute; servicePath: string; init: RequestInit & { duplex?: "half" } };

function problem(status: 404 | 405, code: string, detail: string, instance: string, headers: Record<string, string> = {}): Response {
  const body = new ApiError(status, code, detail).toBody(instance);
  return new Response(JSON.stringify(body), { status, headers: { "content-type": PROBLEM_CONTENT_TYPE, "cache-control": "no-store", ...headers } });
}

/** The route a page path (below /field/api/, as sent: still percent-encoded) names, and its id. */
function matchRoute(rest: string): { route: FieldRoute; id: string | null } | null {
  const segments = rest.split("/");
  for (const route of FIELD_ROUTES) {
    const pattern = route.page.split("/");
    if (pattern.length !== segments.length) continue;
    let id: string | null = null;
    const matches = pattern.every((part, i) => {
      const segment = segments[i] ?? "";
      if (part !== ":id") return part === segment;
      id = segment;
      return ID_SEGMENT.test(segment);
    });
    if (matches) return { route, id };
  }
  return null;
}

/**
 * What to do with a request the page sent to /field/api/…: refuse it (404 off the list, 405 for a
 * method the path does not take) or forward it — the service path, and a request init with only
 * the listed headers and query parameters and the body streamed.
 */
export function planFieldRequest(request: Request): FieldPlan {
  const url = new URL(request.url);
  const prefix = `${FIELD_API_PATH}/`;
  const matched = url.pathname.startsWith(prefix) ? matchRoute(url.pathname.slice(prefix.length)) : null;
  if (!matched) return { kind: "refused", response: problem(404, "not_found", "The field page has no such route.", url.pathname) };
  const { route, id } = matched;
  const method = request.method.toUpperCase();
  if (!route.methods.some((allowed) => allowed === method)) {
    return {
      kind: "refused",
      response: problem(405, "method_not_allowed", `${method} is not allowed here.`, url.pathname, { allow: route.methods.join(", ") }),
    };
  }

  const query = new URLSearchParams();
  for (const name of route.query ?? []) {
    const value = url.searchParams.get(name);
    if (value) query.set(name, value);
  }
  const path = id === null ? route.service : route.service.replace(":id", id);
  const servicePath = query.size > 0 ? `${path}?${query.toString()}` : path;

  const headers = new Headers();
  for (const name of route.tus ? [...REQUEST_HEADERS, ...TUS_REQUEST_HEADERS] : REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const init: RequestInit & { duplex?: "half" } = { method, headers };
  if ((method === "POST" || method === "PATCH") && request.body) {
    init.body = request.body;
    // Node's fetch needs this to send a stream as a request body: the photo is passed on as it arrives.
    init.duplex = "half";
  }
  return { kind: "forward", route, servicePath, init };
}

/** The service's answer as the page receives it: its headers (tus, X-RateLimit-*, …) and body, a tus Location on the page's path. */
export function fieldAnswer(answer: Response, { route, method }: { route: FieldRoute; method: string }): Response {
  const headers = new Headers(answer.headers);
  for (const name of DROPPED_RESPONSE_HEADERS) headers.delete(name);
  const location = headers.get("location");
  if (route.tus && location) {
    const id = new URL(location, "http://service").pathname.split("/").at(-1) ?? "";
    if (ID_SEGMENT.test(id)) headers.set("location", `${FIELD_API_PATH}/uploads/${id}`);
    else headers.delete("location");
  }
  const bodyless = method === "HEAD" || answer.status === 204 || answer.status === 205 || answer.status === 304;
  if (bodyless) void answer.body?.cancel().catch(() => undefined);
  return new Response(bodyless ? null : answer.body, { status: answer.status, statusText: answer.statusText, headers });
}
