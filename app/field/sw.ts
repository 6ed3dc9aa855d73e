/// <reference lib="webworker" />
// The field page's service worker (bundled by @serwist/turbopack, served at /field/serwist/sw.js,
// scope /field): the build's scripts, styles and fonts precached at install, and the page's HTML
// kept from each visit, so /field opens with no signal. Only those: the zoomer's data
// (/field/api/*) always goes to the network — the page keeps what it needs in IndexedDB, per
// session, and clears it on sign-out — so no cache here can answer for another zoomer.
import { CacheFirst, ExpirationPlugin, NetworkFirst, NetworkOnly, Serwist, type PrecacheEntry } from "serwist";
import { FIELD_ASSETS_CACHE, FIELD_PAGES_CACHE, isFieldShellRequest } from "@/lib/field/offline-caches";

declare global {
  interface WorkerGlobalScope {
    __SW_MANIFEST: (PrecacheEntry | string)[] | undefined;
  }
}
declare const self: ServiceWorkerGlobalScope;

const serwist = new Serwist({
  precacheEntries: self.__SW_MANIFEST,
  // A new build takes over at once: the precache it brings matches the pages the server renders.
  skipWaiting: true,
  clientsClaim: true,
  runtimeCaching: [
    {
      matcher: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/field/api/"),
      handler: new NetworkOnly(),
    },
    {
      matcher: ({ url, request, sameOrigin }) => sameOrigin && request.method === "GET" && isFieldShellRequest(url, request.headers),
      // The network when it answers within a few seconds (one bar of signal), else the last copy.
      handler: new NetworkFirst({
        cacheName: FIELD_PAGES_CACHE,
        networkTimeoutSeconds: 4,
        matchOptions: { ignoreSearch: true },
        plugins: [new ExpirationPlugin({ maxEntries: 4 })],
      }),
    },
    {
      matcher: ({ url, sameOrigin }) => sameOrigin && (url.pathname.startsWith("/_next/static/") || url.pathname === "/icon.svg"),
      handler: new CacheFirst({ cacheName: FIELD_ASSETS_CACHE, plugins: [new ExpirationPlugin({ maxEntries: 200 })] }),
    },
  ],
});

serwist.addEventListeners();
