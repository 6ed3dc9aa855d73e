"use client";

/**
 * The dashboard's map: MapLibre through react-map-gl on the configured basemap (BasemapProvider:
 * streets, imagery or the bundled offline style), a switcher when there is more than one, the
 * navigation, scale and attribution controls, and a loading state.
 *
 * A street style that has not loaded within STREETS_TIMEOUT_MS, or fails before it loads
 * (offline, blocked), gives way to the offline basemap by itself, and the map says so in one line.
 *
 * The map is uncontrolled: the camera starts from `bounds` and then lives inside MapLibre, so
 * panning never re-renders React. Children (sources, layers, controls such as DrawControl) are
 * mounted once the style has loaded, so they can add layers straight away. Another basemap is a
 * new map at the same camera (its children mount again): a style swap in place would drop the
 * layers children added.
 */
import "maplibre-gl/dist/maplibre-gl.css";

import { useLocale, useTranslations } from "next-intl";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode, type Ref } from "react";
import { directionOf, usesImperial } from "@/lib/i18n/locales";
import {
  AttributionControl,
  Map as MapLibreMap,
  NavigationControl,
  ScaleControl,
  type ErrorEvent,
  type MapLayerMouseEvent,
  type MapRef,
} from "react-map-gl/maplibre";

import { MAP_FADE_DURATION_MS } from "@/components/map/map-options";
import { maplibreWorkerUrl } from "@/components/map/maplibre-worker";
import { BasemapSwitcher } from "@/components/map/basemap-switcher";
import { useBasemapSettings } from "@/components/map/basemap-provider";
import { usePmtilesStyle } from "@/components/map/use-pmtiles-style";
import { useRememberedBasemap } from "@/components/map/use-remembered-basemap";
import type { BasemapKind } from "@/lib/map/basemap-config";
import { overlayGlyphRequest, resolveMapStyle } from "@/lib/map/basemap-style";

/** How long a street style may take to load (style, sprites, first tiles) before the offline basemap replaces it. */
export const STREETS_TIMEOUT_MS = 6000;

/** [west, south, east, north] in degrees. */
export type LngLatBbox = [number, number, number, number];

export interface BaseMapProps {
  /** Accessible name of the map (announced for its focusable canvas), e.g. "Mission area map". */
  "aria-label": string;
  /** Area the map first shows. */
  bounds: LngLatBbox;
  /** Pixels kept clear around `bounds` (per side, e.g. below a legend in a corner). */
  boundsPadding?: number | { top: number; bottom: number; left: number; right: number };
  /** Zoom the first view never exceeds (a tiny polygon should not open at street-corner zoom). */
  maxInitialZoom?: number;
  /** Layers whose features the mouse handlers receive in `event.features`. */
  interactiveLayerIds?: string[];
  onMouseMove?: (event: MapLayerMouseEvent) => void;
  onMouseLeave?: (event: MapLayerMouseEvent) => void;
  onClick?: (event: MapLayerMouseEvent) => void;
  /** Called once the style has loaded (children are mounted from then on); use `ref` for the map. */
  onLoad?: () => void;
  /** CSS cursor over the map canvas; MapLibre's grab cursor when unset. */
  cursor?: string;
  /** Size the map through its wrapper, e.g. "h-[32rem]" (the map fills it). */
  className?: string;
  children?: ReactNode;
  ref?: Ref<MapRef>;
}

function subscribeToNothing(): () => void {
  return () => {};
}

/** The page's origin in the browser, null during server rendering (the map only runs in the browser). */
function useOrigin(): string | null {
  return useSyncExternalStore(
    subscribeToNothing,
    () => window.location.origin,
    () => null,
  );
}

const WIDE_SCREEN = "(min-width: 768px)";

function subscribeToWidth(onChange: () => void): () => void {
  const query = window.matchMedia(WIDE_SCREEN);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** True from Tailwind's md breakpoint up, where the full attribution text fits. */
function useWideScreen(): boolean {
  return useSyncExternalStore(
    subscribeToWidth,
    () => window.matchMedia(WIDE_SCREEN).matches,
    () => true,
  );
}

type LoadState = { kind: "loading" } | { kind: "ready" } | { kind: "failed"; message: string };

type Camera = { longitude: number; latitude: number; zoom: number };

export function BaseMap({
  "aria-label": ariaLabel,
  bounds,
  boundsPadding = 40,
  maxInitialZoom = 16,
  interactiveLayerIds,
  onMouseMove,
  onMouseLeave,
  onClick,
  onLoad,
  cursor,
  className,
  children,
  ref,
}: BaseMapProps) {
  const origin = useOrigin();
  const wide = useWideScreen();
  const { config, storageKey } = useBasemapSettings();
  const [chosen, choose] = useRememberedBasemap(config, storageKey);
  const [state, setState] = useState<LoadState>({ kind: "loading" });
  // The controls mirror with the page: in Arabic or Hebrew the zoom buttons sit at the start (left).
  const t = useTranslations("dashboard.map");
  const locale = useLocale();
  const rtl = directionOf(locale) === "rtl";
  // Set when the street style could not be reached in this map's life: the offline basemap shows.
  const [streetsUnreachable, setStreetsUnreachable] = useState(false);
  const shown: BasemapKind = chosen === "streets" && streetsUnreachable ? "offline" : chosen;

  const fallBackToOffline = useCallback(() => {
    setStreetsUnreachable(true);
    setState({ kind: "loading" });
  }, []);

  const pmtilesStyle = usePmtilesStyle(
    shown === "streets" && config.streets?.kind === "pmtiles" ? config.streets.archivePath : null,
    origin,
    config.offlineAssetsPath,
    fallBackToOffline,
  );

  // One style object per basemap: a new object on every render would make react-map-gl diff
  // and re-apply the style, wiping the layers other components added.
  const mapStyle = useMemo(() => {
    if (origin === null) return null;
    if (shown === "streets" && config.streets?.kind === "pmtiles") return pmtilesStyle;
    return resolveMapStyle({ kind: shown, config, origin });
  }, [shown, config, origin, pmtilesStyle]);

  // The map instance, for the camera to keep across basemaps; callers get it through `ref` too.
  const mapRef = useRef<MapRef | null>(null);
  const setMapRef = useCallback(
    (map: MapRef | null) => {
      mapRef.current = map;
      if (typeof ref === "function") ref(map);
      else if (ref) ref.current = map;
    },
    [ref],
  );

  // The first camera, then wherever the user was when they switched basemap; later changes to
  // `bounds` do not move the map (it is uncontrolled).
  const [initialViewState, setInitialViewState] = useState<{ bounds: LngLatBbox; fitBoundsOptions: object } | Camera>(() => ({
    bounds,
    fitBoundsOptions: { padding: boundsPadding, maxZoom: maxInitialZoom },
  }));

  const switchTo = useCallback(
    (kind: BasemapKind) => {
      const map = mapRef.current;
      if (map && state.kind === "ready") {
        const center = map.getCenter();
        setInitialViewState({ longitude: center.lng, latitude: center.lat, zoom: map.getZoom() });
      }
      setStreetsUnreachable(false);
      setState({ kind: "loading" });
      choose(kind);
    },
    [choose, state.kind],
  );

  // A street style slower than STREETS_TIMEOUT_MS counts as unreachable (a blocked host often
  // never answers at all).
  useEffect(() => {
    if (shown !== "streets" || state.kind !== "loading" || origin === null) return;
    const timer = window.setTimeout(fallBackToOffline, STREETS_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [shown, state.kind, origin, fallBackToOffline]);

  const transformRequest = useCallback(
    (url: string, resourceType?: unknown) => {
      if (origin === null || String(resourceType) !== "Glyphs") return undefined;
      const overlayUrl = overlayGlyphRequest(url, origin, config.offlineAssetsPath);
      return overlayUrl === null ? undefined : { url: overlayUrl };
    },
    [origin, config.offlineAssetsPath],
  );

  const handleLoad = useCallback(() => {
    setState({ kind: "ready" });
    onLoad?.();
  }, [onLoad]);

  const handleError = useCallback(
    (event: ErrorEvent) => {
      // After the first load, a failed tile is MapLibre's business (it logs and retries); before
      // it, a street style falls back to the offline one, and any other map will never appear.
      if (state.kind !== "loading") return;
      if (shown === "streets") fallBackToOffline();
      else setState({ kind: "failed", message: event.error.message });
    },
    [state.kind, shown, fallBackToOffline],
  );

  return (
    <div
      className={[
        "relative isolate overflow-hidden rounded-md border border-slate-200 bg-[#cfdfe9]",
        // The scale ("100 m") and the attribution are left-to-right text: in an RTL page they would read "m 100".
        "[&_.maplibregl-ctrl-attrib]:[direction:ltr] [&_.maplibregl-ctrl-scale]:[direction:ltr]",
        // The canvas is the focusable part (arrow keys pan, +/- zoom): give it a visible ring.
        "[&_.maplibregl-canvas:focus-visible]:outline-3 [&_.maplibregl-canvas:focus-visible]:-outline-offset-3 [&_.maplibregl-canvas:focus-visible]:outline-emerald-700",
        className ?? "h-96",
      ].join(" ")}
      data-map-state={state.kind}
    >
      {origin !== null && mapStyle !== null && (
        <MapLibreMap
          key={shown}
          ref={setMapRef}
          mapStyle={mapStyle}
          initialViewState={initialViewState}
          workerUrl={maplibreWorkerUrl()}
          transformRequest={transformRequest}
          locale={{ "Map.Title": ariaLabel, "NavigationControl.ZoomIn": t("zoomIn"), "NavigationControl.ZoomOut": t("zoomOut") }}
          attributionControl={false}
          fadeDuration={MAP_FADE_DURATION_MS}
          dragRotate={false}
          pitchWithRotate={false}
          touchPitch={false}
          maxPitch={0}
          interactiveLayerIds={interactiveLayerIds}
          onMouseMove={onMouseMove}
          onMouseLeave={onMouseLeave}
          onClick={onClick}
          onLoad={handleLoad}
          onError={handleError}
          cursor={cursor}
          style={{ width: "100%", height: "100%" }}
        >
          <NavigationControl position={rtl ? "top-left" : "top-right"} showCompass={false} />
          <ScaleControl position={rtl ? "bottom-right" : "bottom-left"} unit={usesImperial(locale) ? "imperial" : "metric"} />
          {/* Remounted when the breakpoint is crossed: MapLibre reads `compact` only once. */}
          <AttributionControl key={wide ? "full" : "compact"} position={rtl ? "bottom-left" : "bottom-right"} compact={!wide} />
          {state.kind === "ready" && children}
        </MapLibreMap>
      )}
      <div className="pointer-events-none absolute top-2.5 start-2.5 z-10 flex max-w-[calc(100%-4rem)] flex-col items-start gap-1.5">
        {/* The basemap on screen is the one marked: after the automatic fallback that is Offline (and
            pressing Streets tries the street map again), never a Streets that is not showing. */}
        <BasemapSwitcher config={config} value={shown} onChange={switchTo} />
        {/* Always in the page, so screen readers announce the line when it appears. */}
        <p
          role="status"
          className={streetsUnreachable && chosen === "streets" ? "rounded bg-white/85 px-2 py-0.5 text-xs text-slate-700 shadow-sm" : "sr-only"}
        >
          {streetsUnreachable && chosen === "streets" ? t("streetsUnreachable") : ""}
        </p>
      </div>
      {state.kind === "loading" && (
        <div role="status" className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <span className="rounded-md bg-white/90 px-3 py-1.5 text-sm text-slate-700 shadow-sm">{t("loading")}</span>
        </div>
      )}
      {state.kind === "failed" && (
        <div role="alert" className="absolute inset-0 flex items-center justify-center p-6">
          <p className="max-w-sm rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">{t("failed", { message: state.message })}</p>
        </div>
      )}
    </div>
  );
}
