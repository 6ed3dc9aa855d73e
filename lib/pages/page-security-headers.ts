// The security headers of every page this app renders — its own (proxy.ts) and next-auth's
// (/api/auth/signout, /api/auth/verify-request: app/api/auth/[...nextauth]/route.ts) — from the
// validated environment: the CSP with this response's nonce and the origins the configuration
// adds (basemaps, a CDN on another host), and the static headers.
import { foreignCdnOrigin } from "@/lib/api-client/page-photo-urls";
import { env } from "@/lib/env";
import { basemapOrigins } from "@/lib/map/basemap-config";
import { contentSecurityPolicy, staticSecurityHeaders } from "@/lib/http/security-headers";

const MAP_ORIGINS = basemapOrigins(env);
const CDN_ORIGIN = foreignCdnOrigin({ publicOrigin: env.PUBLIC_ORIGIN, cdnUrl: env.CDN_URL });

export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/** `X-Forwarded-Proto` counts only from a trusted proxy (scripts/server.ts drops a client's otherwise). */
export function isHttps(requestHeaders: Headers): boolean {
  return env.PUBLIC_ORIGIN.startsWith("https:") || requestHeaders.get("x-forwarded-proto") === "https";
}

export function pageSecurityHeaders({ nonce, https }: { nonce: string; https: boolean }): Record<string, string> {
  const csp = contentSecurityPolicy({ nonce, development: env.NODE_ENV === "development", mapOrigins: MAP_ORIGINS, cdnOrigin: CDN_ORIGIN, https });
  return { "Content-Security-Policy": csp, ...staticSecurityHeaders({ https }) };
}

/**
 * A page some library rendered (next-auth's) with the same headers as ours: its inline <style>
 * elements get the nonce, so the CSP allows them and nothing else inline.
 */
export async function withPageSecurityHeaders(response: Response, requestHeaders: Headers): Promise<Response> {
  const nonce = newNonce();
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(pageSecurityHeaders({ nonce, https: isHttps(requestHeaders) }))) headers.set(name, value);
  let body: BodyInit | null = response.body;
  if (response.body && /^text\/html\b/i.test(headers.get("content-type") ?? "")) {
    body = (await response.text()).replace(/<style>/g, `<style nonce="${nonce}">`);
    headers.delete("content-length");
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
