"use client";
/**
 * The drawing map's search box: typed coordinates ("43.7696, 11.2558"), the bundled offline place
 * names (the order wizard's place search over public/basemap/places.geojson, loaded on first use)
 * and, when the server has GEOCODER_URL, the geocoder's answers through /dashboard-api/geocode.
 * Choosing a result moves the map there; nothing is added to the polygon.
 */
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";

import { proxyJson } from "@/components/dashboard/proxy-json";
import { searchPlaces } from "@/components/map/place-search";
import { noResultsMessage, searchPlaceholder } from "./search-status";
import { usePlaceIndex } from "./use-place-index";
import { inputClasses } from "@/components/ui/field";
import type { GeocodedPlace } from "@/lib/geocode/search-geocoder";
import { parseCoordinates } from "@/lib/geo/parse-coordinates";

export interface SearchTarget {
  lng: number;
  lat: number;
  /** [west, south, east, north] to fit, when the result is an area. */
  bbox: [number, number, number, number] | null;
}

interface Result {
  key: string;
  label: string;
  detail: string;
  target: SearchTarget;
}

const GEOCODER_DELAY_MS = 350;

function useDebounced(value: string, delayMs: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export function MapSearch({ geocoder, onChoose }: { geocoder: boolean; onChoose: (target: SearchTarget) => void }) {
  const t = useTranslations("dashboard.map.search");
  const id = useId();
  const [query, setQuery] = useState("");
  const { index, state: placesState, load: loadPlaces } = usePlaceIndex();
  const trimmed = query.trim();
  const coordinates = parseCoordinates(trimmed);
  const geocoderQuery = useDebounced(trimmed, GEOCODER_DELAY_MS);

  const remote = useQuery({
    queryKey: ["geocode", geocoderQuery],
    queryFn: ({ signal }) => proxyJson<{ data: GeocodedPlace[] }>(`geocode?q=${encodeURIComponent(geocoderQuery)}`, signal),
    enabled: geocoder && geocoderQuery.length >= 2 && parseCoordinates(geocoderQuery) === null,
    staleTime: 5 * 60_000,
    retry: false,
  });

  const results: Result[] = [];
  if (coordinates) {
    results.push({ key: "coordinates", label: `${coordinates.lat}, ${coordinates.lng}`, detail: t("coordinates"), target: { ...coordinates, bbox: null } });
  } else if (trimmed.length >= 2) {
    for (const place of index ? searchPlaces(index, trimmed, 6) : []) {
      results.push({
        key: `place:${place.name}:${place.lat}:${place.lng}`,
        label: place.name,
        detail: t("offline", { kind: place.kind }),
        target: { lat: place.lat, lng: place.lng, bbox: null },
      });
    }
    if (remote.data && geocoderQuery === trimmed) {
      for (const place of remote.data.data) {
        results.push({ key: `geocoder:${place.name}:${place.lat}:${place.lng}`, label: place.name, detail: t("geocoder"), target: place });
      }
    }
  }

  const count = t("results", { count: results.length });
  const status =
    placesState === "loading"
      ? t("loadingPlaces")
      : trimmed.length < 2
        ? ""
        : remote.isFetching
          ? t("asking", { results: count })
          : remote.error
            ? t("unavailable", { results: count })
            : count;

  // Said where it is seen, not only to screen readers: once the names are loaded and the
  // geocoder (if any) has answered for what is typed.
  const nothingFound =
    results.length === 0 &&
    !coordinates &&
    trimmed.length >= 2 &&
    placesState !== "loading" &&
    index !== null &&
    !remote.isFetching &&
    (!geocoder || geocoderQuery === trimmed);

  return (
    <div className="relative w-full max-w-xs" role="search" aria-label={t("label")}>
      <label htmlFor={`${id}-q`} className="sr-only">
        {t("input")}
      </label>
      <input
        id={`${id}-q`}
        type="search"
        value={query}
        placeholder={searchPlaceholder(geocoder, t)}
        autoComplete="off"
        aria-describedby={`${id}-status`}
        className={`${inputClasses} h-9 py-1 text-sm`}
        onFocus={loadPlaces}
        onChange={(e) => {
          loadPlaces();
          setQuery(e.target.value);
        }}
        onKeyDown={(e) => {
          const first = results[0];
          if (e.key === "Enter") {
            // Inside the mission form: Enter picks the first result instead of submitting the form.
            e.preventDefault();
            if (first) {
              onChoose(first.target);
              setQuery("");
            }
          } else if (e.key === "Escape") {
            setQuery("");
          }
        }}
      />
      <p id={`${id}-status`} aria-live="polite" className="sr-only">
        {placesState === "failed" ? t("placesFailed") : status}
      </p>
      {results.length > 0 ? (
        <ul
          aria-label={t("resultsLabel")}
          className="absolute start-0 end-0 top-full z-20 mt-1 flex flex-col divide-y divide-slate-100 rounded-md border border-slate-200 bg-white shadow-lg"
        >
          {results.map((result) => (
            <li key={result.key}>
              <button
                type="button"
                className="flex w-full items-baseline justify-between gap-2 px-3 py-2 text-start text-sm hover:bg-emerald-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-emerald-600"
                onClick={() => {
                  onChoose(result.target);
                  setQuery("");
                }}
              >
                <span className="min-w-0 truncate font-medium text-slate-900">{result.label}</span>
                <span className="shrink-0 text-xs text-slate-600">{result.detail}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : nothingFound ? (
        <p
          role="status"
          data-testid="search-nothing-found"
          className="absolute start-0 end-0 top-full z-20 mt-1 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm text-slate-700 shadow-lg"
        >
          {noResultsMessage(trimmed, { geocoder, geocoderFailed: Boolean(remote.error) }, t)}
        </p>
      ) : null}
    </div>
  );
}
