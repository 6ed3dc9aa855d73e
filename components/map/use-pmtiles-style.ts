"use client";

// The style of the self-hosted PMTiles basemap, loaded on demand (load-pmtiles-style.ts): null
// until ready, or when `archivePath` is null (another basemap is shown). A failure to load the code
// counts as streets being unreachable.
import { useEffect, useState } from "react";
import type { StyleSpecification } from "react-map-gl/maplibre";

import { loadPmtilesStyle } from "@/components/map/load-pmtiles-style";

export function usePmtilesStyle(archivePath: string | null, origin: string | null, assetsPath: string, onFailure: () => void): StyleSpecification | null {
  const key = archivePath === null || origin === null ? null : `${origin}${archivePath}|${assetsPath}`;
  const [loaded, setLoaded] = useState<{ key: string; style: StyleSpecification } | null>(null);

  useEffect(() => {
    if (key === null || archivePath === null || origin === null) return;
    let cancelled = false;
    loadPmtilesStyle({ archiveUrl: `${origin}${archivePath}`, origin, assetsPath }).then(
      (style) => {
        if (!cancelled) setLoaded({ key, style });
      },
      () => {
        if (!cancelled) onFailure();
      },
    );
    return () => {
      cancelled = true;
    };
  }, [key, archivePath, origin, assetsPath, onFailure]);

  return loaded !== null && loaded.key === key ? loaded.style : null;
}
