"use client";
// Registers the field page's service worker (app/field/sw.ts) and, once it is active, has it keep
// this page's HTML, so the next visit opens with no signal — the first visit loaded the page
// before the worker existed, so the worker could not keep it on its own.
import { SerwistProvider, useSerwist } from "@serwist/turbopack/react";
import { useEffect, type ReactNode } from "react";
import { FIELD_SW_SCOPE, FIELD_SW_URL } from "@/lib/field/offline-caches";

function KeepThisPage() {
  const { serwist } = useSerwist();
  useEffect(() => {
    if (!serwist) return;
    let cancelled = false;
    serwist.active
      .then(() => {
        if (!cancelled && navigator.onLine) return serwist.messageSW({ type: "CACHE_URLS", payload: { urlsToCache: [FIELD_SW_SCOPE] } });
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [serwist]);
  return null;
}

/** One object for every render: the provider registers again when its options change. */
const OPTIONS = { scope: FIELD_SW_SCOPE };

/** `enabled` only in production builds: in development the worker would serve stale code. */
export function FieldServiceWorker({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  return (
    // reloadOnOnline off: the page itself resumes its uploads and lists when the signal is back;
    // a reload in the middle would only interrupt them. cacheOnNavigation off: it wraps
    // history.pushState/replaceState and posts each call's URL argument to the worker as is — a
    // URL object there cannot be cloned (an uncaught DataCloneError on every load); KeepThisPage
    // keeps the one page this worker serves offline.
    <SerwistProvider swUrl={FIELD_SW_URL} options={OPTIONS} reloadOnOnline={false} cacheOnNavigation={false} disable={!enabled}>
      <KeepThisPage />
      {children}
    </SerwistProvider>
  );
}
