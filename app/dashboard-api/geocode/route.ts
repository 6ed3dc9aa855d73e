// GET /dashboard-api/geocode?q=… – the mission editor's place search through GEOCODER_URL, asked
// by this server so the browser only ever talks to our origin (and the CSP stays closed).
import { z } from "zod";
import { getDashboardAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";
import { MAX_GEOCODER_QUERY, searchGeocoder } from "@/lib/geocode/search-geocoder";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const QuerySchema = z.object({ q: z.string().trim().min(2).max(MAX_GEOCODER_QUERY) });

function problem(status: number, code: string, detail: string): Response {
  return Response.json({ type: "about:blank", title: code, status, code, detail }, { status, headers: { "content-type": "application/problem+json" } });
}

export async function GET(request: Request): Promise<Response> {
  const access = await getDashboardAccess();
  if (!access) return problem(401, "unauthenticated", "Your session has ended. Sign in again.");
  if (!env.GEOCODER_URL) return problem(404, "not_found", "No geocoder is configured (GEOCODER_URL).");
  const query = QuerySchema.safeParse({ q: new URL(request.url).searchParams.get("q") ?? "" });
  if (!query.success) return problem(422, "validation_failed", `q: 2 to ${MAX_GEOCODER_QUERY} characters.`);
  const result = await searchGeocoder({ url: env.GEOCODER_URL, query: query.data.q, signal: request.signal });
  if (!result.ok) return problem(502, "geocoder_unavailable", result.reason);
  return Response.json({ data: result.places }, { headers: { "cache-control": "private, no-store" } });
}
