"use client";
// The one outbox of this page (lib/field/outbox.ts) wired to the phone's storage (IndexedDB),
// the resumable tus transport through the page's proxy (lib/field/tus-transport.ts; the multipart
// field routes where a browser cannot run tus-js-client), the browser's online signal and the
// Web Locks API (one tab sends at a time), and a hook to read it.
import { useEffect, useSyncExternalStore } from "react";
import { getOutboxEntry, listOutbox, putOutboxEntry, removeOutboxEntry } from "@/lib/field/device-store";
import { isSupported as tusSupported } from "tus-js-client";
import { checkVerdictOverHttp, uploadMultipart } from "@/lib/field/multipart-transport";
import { FIELD_OUTBOX_SYNC } from "@/lib/field/offline-caches";
import { Outbox, type OutboxView } from "@/lib/field/outbox";
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
const noop = () => () => {};

/** The outbox and its entries (all, or those for one target), live. */
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
