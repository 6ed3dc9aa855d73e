"use client";
// The one outbox of this page (lib/field/outbox.ts) wired to the phone's storage (IndexedDB),
// the resumable tus transport through the page's proxy (lib/field/tus-transport.ts; the multipart
// field routes where a browser cannot run tus-js-client), the browser's online signal and the
// Web Locks API (one tab sends at a time), and a hook to read it. The page says who is signed in
// (useOutboxOwner, from the server's session): only that zoomer's photos are sent and shown.
import { useEffect, useSyncExternalStore } from "react";
import { getOutboxEntry, listOutbox, putOutboxEntry, removeOutboxEntry, saveSessionOwner } from "@/lib/field/device-store";
import { forgetSession } from "@/lib/field/forget-zoomer";
import { isSupported as tusSupported } from "tus-js-client";
import { checkVerdictOverHttp, uploadMultipart } from "@/lib/field/multipart-transport";
import { FIELD_OUTBOX_SYNC } from "@/lib/field/offline-caches";
import { Outbox, type OthersWaiting, type OutboxView } from "@/lib/field/outbox";
import { isPending } from "@/lib/field/outbox-state";
import { uploadTus } from "@/lib/field/tus-transport";

let outbox: Outbox | null = null;

function browserOutbox(): Outbox {
  if (outbox) return outbox;
  outbox = new Outbox({
    store: { list: listOutbox, get: getOutboxEntry, put: putOutboxEntry, remove: removeOutboxEntry },
    upload: tusSupported ? uploadTus : uploadMultipart,
    checkVerdict: checkVerdictOverHttp,
    isOnline: () => navigator.onLine,
    onOnline: (fn) => {
      window.addEventListener("online", fn);
      return () => window.removeEventListener("online", fn);
    },
    exclusive: (fn) => ("locks" in navigator ? navigator.locks.request("photo-missions-field-outbox", fn) : fn()),
    // Nobody's photos go until the page says who is signed in (useOutboxOwner).
    owner: null,
    // The server's session is not the zoomer this page thought: ask it again.
    onWrongOwner: () => window.location.reload(),
  });
  void outbox.open().catch(() => {});
  // While photos wait, ask for a Background Sync (where the browser has it): the service worker
  // sends them when the signal returns, even if this page has been closed by then.
  let asked = false;
  outbox.subscribe(() => {
    const waiting = outbox?.getSnapshot().some((e) => e.state.phase === "waiting") ?? false;
    if (waiting && !asked) void askForBackgroundSync();
    asked = waiting;
  });
  return outbox;
}

type SyncRegistration = ServiceWorkerRegistration & { sync?: { register: (tag: string) => Promise<void> } };

async function askForBackgroundSync(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  const registration = (await navigator.serviceWorker.getRegistration("/field")) as SyncRegistration | undefined;
  await registration?.sync?.register(FIELD_OUTBOX_SYNC).catch(() => {});
}

const EMPTY: readonly OutboxView[] = [];
const NO_OTHERS: OthersWaiting = [];
const noop = () => () => {};

/**
 * Who is signed in on this page (the server's session; null on the sign-in page or once the
 * session has run out), and their name to stamp on the photos they take: the outbox sends and
 * shows only their photos, the service worker learns
 * it too, and when nobody is signed in the kept lists of the last session are forgotten.
 */
export function useOutboxOwner(owner: string | null, ownerName: string | null = null): void {
  useEffect(() => {
    browserOutbox().setOwner(owner, ownerName);
    if (owner) void saveSessionOwner(owner).catch(() => {});
    else void forgetSession();
  }, [owner, ownerName]);
}

/** How many photos on this phone wait for other zoomers (no content: counts only). */
export function useOthersWaiting(): OthersWaiting {
  const box = typeof window === "undefined" ? null : browserOutbox();
  return useSyncExternalStore(box?.subscribe ?? noop, box?.getOthers ?? (() => NO_OTHERS), () => NO_OTHERS);
}

/** The outbox and the signed-in zoomer's entries (all, or those for one target), live. */
export function useOutbox(filter?: (entry: OutboxView) => boolean): { outbox: Outbox | null; entries: readonly OutboxView[] } {
  const box = typeof window === "undefined" ? null : browserOutbox();
  const all = useSyncExternalStore(box?.subscribe ?? noop, box?.getSnapshot ?? (() => EMPTY), () => EMPTY);
  useEffect(() => {
    // Back in view (a phone's screen turned on again): try the waiting photos.
    const onVisible = () => document.visibilityState === "visible" && box?.kick();
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [box]);
  return { outbox: box, entries: filter ? all.filter(filter) : all };
}

export function usePendingCount(): number {
  return useOutbox().entries.filter((e) => isPending(e.state)).length;
}
