/// <reference lib="webworker" />
// The field page's service worker (bundled by @serwist/turbopack, served at /field/serwist/sw.js,
// scope /field): the build's scripts, styles and fonts precached at install, and the page's HTML
// kept from each visit, so /field opens with no signal. Only those: the zoomer's data
// (/field/api/*) always goes to the network — the page keeps what it needs in IndexedDB, per
// session, and clears it on sign-out — so no cache here can answer for another zoomer.
import { CacheFirst, ExpirationPlugin, NetworkFirst, NetworkOnly, Serwist, type PrecacheEntry } from "serwist";
import { getOutboxEntry, listOutbox, loadSessionOwner, putOutboxEntry, removeOutboxEntry } from "@/lib/field/device-store";
import { checkVerdictOverHttp, uploadMultipartWithFetch } from "@/lib/field/multipart-transport";
import { FIELD_ASSETS_CACHE, FIELD_OUTBOX_SYNC, FIELD_PAGES_CACHE, isFieldShellRequest } from "@/lib/field/offline-caches";
import { Outbox } from "@/lib/field/outbox";

declare global {
  interface WorkerGlobalScope {
    __SW_MANIFEST: (PrecacheEntry | string)[] | undefined;
  }
}
declare const self: ServiceWorkerGlobalScope;

/** Background Sync's event (not in TypeScript's worker library yet). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

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

// Background Sync, where the browser has it: when the signal returns the browser wakes this worker
// with the tag the page registered while photos waited, even with the page closed, and the worker
// sends them through the same outbox (IndexedDB, one sender at a time through the Web Locks API,
// the stored state deciding). Only the photos of the zoomer the page last saw signed in go (each
// request names its owner, and the server refuses it for another session); with nobody signed in,
// none. The page follows their verdicts when it opens. Without it, the page
// sends whenever it is open (components/field/use-outbox.ts).
self.addEventListener("sync", (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== FIELD_OUTBOX_SYNC) return;
  sync.waitUntil(
    (async () => {
      const owner = await loadSessionOwner();
      if (!owner) return;
      const outbox = new Outbox({
        owner,
        store: { list: listOutbox, get: getOutboxEntry, put: putOutboxEntry, remove: removeOutboxEntry },
        upload: uploadMultipartWithFetch,
        checkVerdict: checkVerdictOverHttp,
        isOnline: () => self.navigator.onLine,
        onOnline: () => () => {},
        exclusive: (fn) => self.navigator.locks.request("photo-missions-field-outbox", fn),
      });
      await outbox.load();
      await outbox.flush();
    })(),
  );
});
