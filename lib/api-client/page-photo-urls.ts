// The pages' own addresses for the photo URLs the API hands out. The API signs absolute URLs
// under PUBLIC_ORIGIN (or CDN_URL) for integrators; a page may be opened at another host —
// 127.0.0.1, a LAN address from a phone, a proxy's name before PUBLIC_ORIGIN is set — where those
// URLs are another origin, which the page's CSP refuses (and which may not even resolve). So every
// answer the pages get from the service (lib/api-client/transport.ts) has its photo URLs turned
// into same-origin paths (`/cdn/images/…`). A CDN on another host stays absolute: the pages' CSP
// names its origin (lib/http/security-headers.ts).

export interface PhotoUrlBases {
  /** PUBLIC_ORIGIN, e.g. http://localhost:3000. */
  publicOrigin: string;
  /** CDN_URL, e.g. http://localhost:3000/cdn (no trailing slash). */
  cdnUrl: string;
}

/** The CDN's origin when it is not the app's own (CDN_URL on another host), else null. */
export function foreignCdnOrigin({ publicOrigin, cdnUrl }: PhotoUrlBases): string | null {
  const cdn = new URL(cdnUrl).origin;
  return cdn === new URL(publicOrigin).origin ? null : cdn;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * JSON text with every string that starts with the CDN's URL started with its path instead. Only
 * at the start of a string (after an unescaped quote): a photo URL quoted inside some other text
 * is that text's business.
 */
export function pagePhotoUrlsInJson(text: string, bases: PhotoUrlBases): string {
  if (foreignCdnOrigin(bases)) return text;
  const prefix = `${bases.cdnUrl}/`;
  if (!text.includes(prefix)) return text;
  const path = new URL(prefix).pathname;
  return text.replace(new RegExp(`(?<!\\\\)"${escapeRegExp(prefix)}`, "g"), `"${path}`);
}

/** A service answer as the pages should see it: JSON bodies with page photo URLs; anything else as it is. */
export async function withPagePhotoUrls(response: Response, bases: PhotoUrlBases): Promise<Response> {
  const type = response.headers.get("content-type") ?? "";
  // Compressed bodies pass through untouched (the map's points, which hold no photo URLs).
  if (!response.body || !/^application\/(problem\+)?json\b/i.test(type) || response.headers.has("content-encoding")) return response;
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(pagePhotoUrlsInJson(text, bases), { status: response.status, statusText: response.statusText, headers });
}
