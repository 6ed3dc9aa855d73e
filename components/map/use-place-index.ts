"use client";

/**
 * The offline place names (the bundled basemap's places.geojson, about 10,000 GeoNames places) as
 * a search index, fetched once when `load` is first called — from the offline basemap's
 * content-hashed path, so the browser caches the 1.5 MB file for a year (and shares it with the
 * offline map) instead of revalidating public/ on every visit.
 */
import { useRef, useState } from "react";
import { indexPlaces, placesFromGeoJson, type PlaceIndex } from "@/components/map/place-search";
import { useBasemapSettings } from "./basemap-provider";

export type PlaceIndexState = "idle" | "loading" | "failed";

export function usePlaceIndex(): { index: PlaceIndex | null; state: PlaceIndexState; load: () => void } {
  const { config } = useBasemapSettings();
  const [index, setIndex] = useState<PlaceIndex | null>(null);
  const [state, setState] = useState<PlaceIndexState>("idle");
  const loading = useRef(false);

  function load() {
    if (index || loading.current) return;
    loading.current = true;
    setState("loading");
    fetch(`${config.offlineAssetsPath}/places.geojson`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((json: unknown) => {
        setIndex(indexPlaces(placesFromGeoJson(json)));
        setState("idle");
      })
      .catch(() => setState("failed"))
      .finally(() => {
        loading.current = false;
      });
  }

  return { index, state, load };
}
