// Runs before every page: sets the browser security headers (lib/pages/page-security-headers.ts)
// with a fresh CSP nonce per response — Next reads the nonce from the request's CSP header and puts
// it on its scripts, so pages render dynamically — and refuses a server action (any POST to a page
// or the field's routes) sent from another origin with 403 (Next itself would fail it with a 500).
import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { isHttps, newNonce, pageSecurityHeaders } from "@/lib/pages/page-security-headers";
import { isSameOriginPost, staticSecurityHeaders } from "@/lib/http/security-headers";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function proxy(request: NextRequest) {
  if (!SAFE_METHODS.has(request.method) && !isSameOriginPost(request.headers, env.PUBLIC_ORIGIN, { trustProxy: env.TRUST_PROXY })) {
    return new NextResponse("Forbidden: this action was posted from another origin.", {
      status: 403,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...staticSecurityHeaders({ https: false }) },
    });
  }
  const nonce = newNonce();
  const headers = pageSecurityHeaders({ nonce, https: isHttps(request.headers) });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", headers["Content-Security-Policy"] ?? "");
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Pages only: the API (/api, /cdn, /.well-known) sets its own headers (next-auth's pages get
  // theirs in their route); static files carry no script.
  matcher: ["/((?!api/|cdn/|\\.well-known/|_next/static/|_next/image|vendor/|basemap/|map-assets/|favicon\\.ico|icon\\.svg|maplibre-gl-worker).*)"],
};
