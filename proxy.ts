// Runs before every page: sets the browser security headers (lib/http/security-headers.ts) with a
// fresh CSP nonce per response — Next reads the nonce from the request's CSP header and puts it on
// its scripts, so pages render dynamically — and refuses a server action posted from another
// origin with 403 (Next itself would fail it with a 500).
import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { contentSecurityPolicy, isSameOriginPost, staticSecurityHeaders } from "@/lib/http/security-headers";
import { basemapOrigins } from "@/lib/map/basemap-config";

const MAP_ORIGINS = basemapOrigins(env);

export function proxy(request: NextRequest) {
  if (request.method === "POST" && request.headers.has("next-action") && !isSameOriginPost(request.headers, env.PUBLIC_ORIGIN)) {
    return new NextResponse("Forbidden: this action was posted from another origin.", {
      status: 403,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...staticSecurityHeaders({ https: false }) },
    });
  }
  const https = env.PUBLIC_ORIGIN.startsWith("https:") || request.headers.get("x-forwarded-proto") === "https";
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = contentSecurityPolicy({ nonce, development: env.NODE_ENV === "development", mapOrigins: MAP_ORIGINS, https });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  for (const [name, value] of Object.entries(staticSecurityHeaders({ https }))) response.headers.set(name, value);
  return response;
}

export const config = {
  // Pages only: the API (/api, /cdn, /.well-known) sets its own headers; static files carry no script.
  matcher: ["/((?!api/|cdn/|\\.well-known/|_next/static/|_next/image|vendor/|basemap/|map-assets/|favicon\\.ico|icon\\.svg|maplibre-gl-worker).*)"],
};
