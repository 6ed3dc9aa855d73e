// The browser-facing security headers of the app's pages (dashboard, /docs, /field, sign-in),
// set by proxy.ts on every page response:
// - a strict Content-Security-Policy: scripts only with this response's nonce (Next puts it on its
//   own scripts) and what they load ('strict-dynamic'); styles from our origin or with the nonce;
//   images, fetches and workers from our origin, plus blob: where MapLibre needs it (its worker
//   decodes tiles and glyphs into blob URLs and image bitmaps) and data: images; nothing from
//   another origin except those the configured basemaps fetch from (lib/map/basemap-config.ts:
//   the street style's origin, with its tiles, sprites and glyphs, and the imagery tiles' origin)
//   and, for images, the photo CDN's when CDN_URL puts it on another host;
// - framing refused (frame-ancestors 'none' and X-Frame-Options: DENY for older browsers);
// - Referrer-Policy, X-Content-Type-Options; HSTS when the app is served over https.
// Style attributes (style-src-attr) stay allowed: React renders `style` props as attributes and
// MapLibre and terra-draw position their elements with them; they cannot run script.

export interface CspOptions {
  nonce: string;
  /** `next dev` needs eval for its error overlay and fast refresh. */
  development: boolean;
  /** Origins the map may fetch from besides ours (basemapOrigins). */
  mapOrigins?: string[];
  /** The photo CDN's origin when it is not ours (CDN_URL on another host: foreignCdnOrigin). */
  cdnOrigin?: string | null;
  /** Served over https: ask the browser to upgrade any stray http subresource. */
  https: boolean;
}

export function contentSecurityPolicy({ nonce, development, mapOrigins = [], cdnOrigin = null, https }: CspOptions): string {
  const withMap = (...sources: string[]) => [...sources, ...mapOrigins].join(" ");
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'${development ? " 'unsafe-inline'" : ""}`,
    "style-src-attr 'unsafe-inline'",
    `img-src ${withMap("'self'", "data:", "blob:", ...(cdnOrigin ? [cdnOrigin] : []))}`,
    "font-src 'self'",
    `connect-src ${withMap("'self'")}${development ? " ws:" : ""}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "media-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** The other headers, the same on every page. */
export function staticSecurityHeaders({ https }: { https: boolean }): Record<string, string> {
  return {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(self), payment=()",
    // Two years, the preload list's minimum; only over https, where it means something.
    ...(https ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

/**
 * Whether a state-changing request (a server action's POST) comes from our own pages: its Origin
 * must be the app's public origin or the host it was sent to (X-Forwarded-Host only from a proxy
 * we trust, TRUST_PROXY). No Origin at all is not a browser (browsers always send it on POST), so
 * it cannot be cross-site request forgery. next.config.ts allows the public origin in Next's own
 * check too, so what passes here is never failed by Next with a 500.
 */
export function isSameOriginPost(headers: Headers, publicOrigin: string, { trustProxy }: { trustProxy: boolean }): boolean {
  const origin = headers.get("origin");
  if (origin === null) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const allowed = new Set([new URL(publicOrigin).host]);
  const requestHost = (trustProxy ? headers.get("x-forwarded-host") : null) ?? headers.get("host");
  if (requestHost) allowed.add(requestHost.split(",")[0]?.trim() ?? "");
  return allowed.has(host);
}
