// GET /dashboard-api/geocode?q=… – the mission editor's place search through GEOCODER_URL, asked
// by this server so the browser only ever talks to our origin (and the CSP stays closed).
import { z } from "zod";
import { getDashboardAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";
import { TokenBuckets } from "@/lib/dashboard/token-bucket";
import { MAX_GEOCODER_QUERY, searchGeocoder } from "@/lib/geocode/search-geocoder";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const QuerySchema = z.object({ q: z.string().trim().min(2).max(MAX_GEOCODER_QUERY) });

/**
 * Per user: 5 searches at once, then one a second — the search box asks once a pause in typing,
 * and public geocoders (Nominatim) allow one request a second from a whole deployment.
 */
const perUser = new TokenBuckets({ capacity: 5, perSecond: 1 });

function problem(status: number, code: string, detail: string, headers: Record<string, string> = {}): Response {
  return Response.json(
    { type: "about:blank", title: code, status, code, detail },
    { status, headers: { "content-type": "application/problem+json", ...headers } },
  );
}

export async function GET(request: Request): Promise<Response> {
  const access = await getDashboardAccess();
  if (!access) return problem(401, "unauthenticated", "Your session has ended. Sign in again.");
  if (!env.GEOCODER_URL) return problem(404, "not_found", "No geocoder is configured (GEOCODER_URL).");
  const query = QuerySchema.safeParse({ q: new URL(request.url).searchParams.get("q") ?? "" });
  if (!query.success) return problem(422, "validation_failed", `q: 2 to ${MAX_GEOCODER_QUERY} characters.`);
  const allowed = perUser.take(access.user.id);
  if (!allowed.ok) {
    return problem(429, "rate_limited", `Too many searches: try again in ${allowed.retryAfterSeconds} s.`, {
      "retry-after": String(allowed.retryAfterSeconds),
    });
  }
  const result = await searchGeocoder({ url: env.GEOCODER_URL, query: query.data.q, signal: request.signal });
  if (!result.ok) return problem(502, "geocoder_unavailable", result.reason);
  return Response.json({ data: result.places }, { headers: { "cache-control": "private, no-store" } });
}
