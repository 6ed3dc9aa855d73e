"use client";

// The user's basemap choice, remembered in this browser under their own key (BasemapProvider), and
// shared live by every map on the page (and other tabs, through the storage event).
import { useCallback, useSyncExternalStore } from "react";

import { chooseBasemap, type BasemapConfig, type BasemapKind } from "@/lib/map/basemap-config";

const CHANGED = "photo-missions:basemap-changed";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

function readStored(key: string | null): string | null {
  if (key === null) return null;
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be refused (privacy settings): the default basemap then.
    return null;
  }
}

export function useRememberedBasemap(config: BasemapConfig, storageKey: string | null): [BasemapKind, (kind: BasemapKind) => void] {
  const stored = useSyncExternalStore(
    subscribe,
    () => readStored(storageKey),
    () => null,
  );
  const choose = useCallback(
    (kind: BasemapKind) => {
      if (storageKey === null) return;
      try {
        window.localStorage.setItem(storageKey, kind);
      } catch {
        return;
      }
      window.dispatchEvent(new Event(CHANGED));
    },
    [storageKey],
  );
  return [chooseBasemap(config, stored), choose];
}
