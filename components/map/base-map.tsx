"use client";

/**
 * The dashboard's map: MapLibre through react-map-gl with the resolved basemap (MAP_STYLE_URL or
 * the bundled offline style), navigation, scale and attribution controls, and a loading state.
 *
 * The map is uncontrolled: the camera starts from `bounds` and then lives inside MapLibre, so
 * panning never re-renders React. Children (sources, layers, controls such as DrawControl) are
 * mounted once the style has loaded, so they can add layers straight away.
 */
import "maplibre-gl/dist/maplibre-gl.css";

import { useCallback, useMemo, useState, useSyncExternalStore, type ReactNode, type Ref } from "react";
import {
  AttributionControl,
  Map as MapLibreMap,
  NavigationControl,
  ScaleControl,
  type ErrorEvent,
  type MapLayerMouseEvent,
  type MapRef,
} from "react-map-gl/maplibre";

import { overlayGlyphRequest, resolveMapStyle } from "@/lib/map/basemap-style";

/** Copied from maplibre-gl by scripts/copy-vendor-assets.mjs (bundled, MapLibre cannot find its worker). */
export const MAPLIBRE_WORKER_PATH = "/vendor/maplibre/maplibre-gl-worker.mjs";

/** [west, south, east, north] in degrees. */
export type LngLatBbox = [number, number, number, number];

export interface BaseMapProps {
  /** Accessible name of the map (announced for its focusable canvas), e.g. "Mission area map". */
  "aria-label": string;
  /** MAP_STYLE_URL from the server's environment; the offline basemap when absent. */
  mapStyleUrl?: string | null;
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

export function BaseMap({
  "aria-label": ariaLabel,
  mapStyleUrl,
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
  const [state, setState] = useState<LoadState>({ kind: "loading" });

  // One style object per basemap: a new object on every render would make react-map-gl diff
  // and re-apply the style, wiping the layers other components added.
  const mapStyle = useMemo(() => (origin === null ? null : resolveMapStyle({ mapStyleUrl, origin })), [mapStyleUrl, origin]);

  // The first camera only; later changes to `bounds` do not move the map (it is uncontrolled).
  const [initialViewState] = useState(() => ({
    bounds,
    fitBoundsOptions: { padding: boundsPadding, maxZoom: maxInitialZoom },
  }));

  const transformRequest = useCallback(
    (url: string, resourceType?: unknown) => {
      if (origin === null || String(resourceType) !== "Glyphs") return undefined;
      const overlayUrl = overlayGlyphRequest(url, origin);
      return overlayUrl === null ? undefined : { url: overlayUrl };
    },
    [origin],
  );

  const handleLoad = useCallback(() => {
    setState({ kind: "ready" });
    onLoad?.();
  }, [onLoad]);

  const handleError = useCallback((event: ErrorEvent) => {
    // After the first load, a failed tile is MapLibre's business (it logs and retries); before
    // it, the map will never appear, so say so.
    setState((current) => (current.kind === "loading" ? { kind: "failed", message: event.error.message } : current));
  }, []);

  return (
    <div
      className={[
        "relative isolate overflow-hidden rounded-md border border-slate-200 bg-[#cfdfe9]",
        // The canvas is the focusable part (arrow keys pan, +/- zoom): give it a visible ring.
        "[&_.maplibregl-canvas:focus-visible]:outline-3 [&_.maplibregl-canvas:focus-visible]:-outline-offset-3 [&_.maplibregl-canvas:focus-visible]:outline-emerald-700",
        className ?? "h-96",
      ].join(" ")}
      data-map-state={state.kind}
    >
      {origin !== null && mapStyle !== null && (
        <MapLibreMap
          ref={ref}
          mapStyle={mapStyle}
          initialViewState={initialViewState}
          workerUrl={`${origin}${MAPLIBRE_WORKER_PATH}`}
          transformRequest={transformRequest}
          locale={{ "Map.Title": ariaLabel }}
          attributionControl={false}
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
          <NavigationControl position="top-right" showCompass={false} />
          <ScaleControl position="bottom-left" unit="metric" />
          {/* Remounted when the breakpoint is crossed: MapLibre reads `compact` only once. */}
          <AttributionControl key={wide ? "full" : "compact"} position="bottom-right" compact={!wide} />
          {state.kind === "ready" && children}
        </MapLibreMap>
      )}
      {state.kind === "loading" && (
        <div role="status" className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <span className="rounded-md bg-white/90 px-3 py-1.5 text-sm text-slate-700 shadow-sm">Loading map…</span>
        </div>
      )}
      {state.kind === "failed" && (
        <div role="alert" className="absolute inset-0 flex items-center justify-center p-6">
          <p className="max-w-sm rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            The map could not be loaded: {state.message}
          </p>
        </div>
      )}
    </div>
  );
}
