// A GET the page's HTML starts while the browser is still parsing it — before Next's runtime has
// loaded and React has hydrated — and that the query asking for the same URL later adopts instead
// of requesting it again. The mission page uses it for the map's points, so their request runs in
// parallel with hydration and the map's chunks rather than after them (map-points benchmark).
//
// Only same-origin dashboard-proxy URLs are started this way: the session cookie goes with them,
// as with any fetch of the page, and no token is involved.

/** Where the inline script leaves its pending responses, by URL. */
const GLOBAL_NAME = "__pmEarlyRequests";

type EarlyRequests = Record<string, Promise<Response> | undefined>;

/**
 * The text of an inline script that starts `GET url` at once (no cache, same-origin credentials).
 * The URL is embedded as a JSON string with `<` escaped, so no URL can close the script element.
 */
export function earlyRequestScript(url: string): string {
  if (!url.startsWith("/dashboard-api/")) throw new Error(`only dashboard-proxy paths are requested early, not ${url}`);
  const literal = JSON.stringify(url).replace(/</g, "\\u003c");
  return `(window.${GLOBAL_NAME}=window.${GLOBAL_NAME}||{})[${literal}]=fetch(${literal},{cache:"no-store",credentials:"same-origin"});`;
}

/**
 * The response of an early request for `url`, once: the first caller adopts it, later callers
 * (refetches) get null and request for themselves. Null as well when no early request was made.
 */
export function takeEarlyRequest(url: string, scope: { [GLOBAL_NAME]?: EarlyRequests } = globalThis as { [GLOBAL_NAME]?: EarlyRequests }): Promise<Response> | null {
  const pending = scope[GLOBAL_NAME]?.[url];
  if (!pending) return null;
  delete scope[GLOBAL_NAME]?.[url];
  return pending;
}
