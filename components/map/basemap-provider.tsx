"use client";

/**
 * Hands the server's basemap configuration (lib/map/basemap-config.ts) to every BaseMap below it,
 * with the key under which this user's basemap choice is remembered in the browser. Mounted by
 * the dashboard layout, so pages and their map components need not pass it along.
 */
import { createContext, use, type ReactNode } from "react";

import type { BasemapConfig } from "@/lib/map/basemap-config";
import { BASEMAP_PATH } from "@/lib/map/basemap-style";

export interface BasemapSettings {
  config: BasemapConfig;
  /** localStorage key of the remembered choice: one per signed-in user. */
  storageKey: string | null;
}

/** Without a provider (e.g. a page outside the dashboard): the offline basemap from public/. */
const OFFLINE_ONLY: BasemapSettings = { config: { streets: null, imagery: null, offlineAssetsPath: BASEMAP_PATH }, storageKey: null };

const BasemapContext = createContext<BasemapSettings>(OFFLINE_ONLY);

export function BasemapProvider({ config, userId, children }: { config: BasemapConfig; userId: string; children: ReactNode }) {
  return <BasemapContext value={{ config, storageKey: `photo-missions:basemap:${userId}` }}>{children}</BasemapContext>;
}

export function useBasemapSettings(): BasemapSettings {
  return use(BasemapContext);
}
