// The names the field page's service worker (app/field/sw.ts) and the page share: the caches it
// keeps, and where it lives. One home, so sign-out clears exactly what the worker filled.
/** The service worker's script (served by app/field/serwist/[path]/route.ts) and its scope. */
export const FIELD_SW_URL = "/field/serwist/sw.js";
export const FIELD_SW_SCOPE = "/field";

/** The field page's HTML shell, cached on each visit so it opens with no signal. */
export const FIELD_PAGES_CACHE = "field-pages";
/** Build assets fetched at run time that the precache did not list (fonts, icons). */
export const FIELD_ASSETS_CACHE = "field-assets";

/** The Background Sync tag: "send the outbox when the signal is back", even with the page closed. */
export const FIELD_OUTBOX_SYNC = "field-outbox";

/** Whether a same-origin GET is the field page itself (not its data or a React Server Component payload). */
export function isFieldShellRequest(url: URL, headers: Headers): boolean {
  return url.pathname === "/field" && !url.searchParams.has("_rsc") && !headers.has("rsc") && !headers.has("next-action");
}
