"use client";
// The order page's map (loaded lazily): the order's locations coloured by state, and — when a
// photo is selected — where its camera stood and which way it faced, against the target, and where
// the phone itself said it was.
import { useTranslations } from "next-intl";
import { useEffect, useMemo } from "react";
import { useMap } from "react-map-gl/maplibre";
import { BaseMap, type LngLatBbox } from "@/components/map/base-map";
import { cameraBbox, distanceBetweenM, type CameraView } from "@/components/map/layers/camera-geometry";
import { CameraPositionLayer } from "@/components/map/layers/camera-position-layer";
import { CAMERA_COLOUR, DEVICE_COLOUR, ORDER_LOCATION_STATE_COLOURS, TARGET_COLOUR } from "@/components/map/layers/order-layer-styles";
import { OrderLocationsLayer, type OrderLocationPoint } from "@/components/map/layers/order-locations-layer";
import { LOCATION_STATES } from "./order-progress";
import { useOrderWords } from "./use-order-words";

function bboxOf(points: { lat: number; lng: number }[]): LngLatBbox {
  const lats = points.map((p) => p.lat);
  const lngs = points.map((p) => p.lng);
  const pad = 0.003;
  return [Math.min(...lngs) - pad, Math.min(...lats) - pad, Math.max(...lngs) + pad, Math.max(...lats) + pad];
}

/**
 * The legend sits in the bottom-left corner, above the scale (the top-left one is BaseMap's:
 * basemap switcher, fallback line): keep the southernmost locations above it.
 */
const LEGEND_CLEAR = { top: 40, bottom: 170, left: 40, right: 40 };

export function OrderMap({
  locations,
  selectedId,
  hoveredId,
  camera,
  onSelect,
  onHoverChange,
}: {
  locations: OrderLocationPoint[];
  selectedId: string | null;
  hoveredId: string | null;
  camera: CameraView | null;
  onSelect: (id: string | null) => void;
  onHoverChange: (id: string | null) => void;
}) {
  const t = useTranslations("orders");
  const { distance } = useOrderWords();
  const bounds = useMemo(() => bboxOf(locations), [locations]);
  const counts = useMemo(() => {
    const c: Record<string, number> = {};
    for (const l of locations) c[l.state] = (c[l.state] ?? 0) + 1;
    return c;
  }, [locations]);
  return (
    <BaseMap aria-label={t("map.label")} bounds={bounds} boundsPadding={LEGEND_CLEAR} className="h-full w-full" maxInitialZoom={16}>
      <OrderLocationsLayer locations={locations} selectedId={selectedId} hoveredId={hoveredId} onSelect={onSelect} onHoverChange={onHoverChange} />
      <CameraPositionLayer view={camera} />
      <FitCamera camera={camera} />
      <section
        aria-label={t("map.legend")}
        className="absolute bottom-9 start-2 hidden w-52 rounded-md border border-slate-200 bg-white/95 p-3 text-xs shadow-sm sm:block"
      >
        <h2 className="mb-1.5 font-semibold tracking-wide text-slate-600 uppercase">{t("page.locations")}</h2>
        <ul className="space-y-1">
          {LOCATION_STATES.map((s) => (
            <li
              key={s}
              title={t(`stateDescriptions.${s}`)}
              data-legend-state={s}
              className={`flex items-center gap-2 ${counts[s] ? "text-slate-800" : "text-slate-500"}`}
            >
              <span
                aria-hidden
                className="inline-block size-3 shrink-0 rounded-full border-2 border-white outline outline-slate-300"
                style={{ backgroundColor: ORDER_LOCATION_STATE_COLOURS[s] }}
              />
              {t(`states.${s}`)}
              <span className="ms-auto tabular-nums text-slate-600">{counts[s] ?? 0}</span>
            </li>
          ))}
        </ul>
        {camera ? (
          <ul className="mt-2 space-y-1 border-t border-slate-200 pt-2">
            <li className="flex items-center gap-2 text-slate-800">
              <span aria-hidden className="inline-block size-3 rounded-full border-[3px] bg-white" style={{ borderColor: TARGET_COLOUR }} />
              {t("map.target")}
            </li>
            <li className="flex items-center gap-2 text-slate-800">
              <span aria-hidden className="inline-block size-3 rounded-full" style={{ backgroundColor: CAMERA_COLOUR }} />
              {t("map.camera")}
            </li>
            {camera.device ? (
              <li className="flex items-center gap-2 text-slate-800" data-testid="legend-device">
                <span aria-hidden className="inline-block size-3 rounded-full" style={{ backgroundColor: DEVICE_COLOUR }} />
                {camera.camera ? t("map.deviceFrom", { distance: distance(distanceBetweenM(camera.device, camera.camera)) }) : t("map.device")}
              </li>
            ) : null}
          </ul>
        ) : null}
      </section>
    </BaseMap>
  );
}

function FitCamera({ camera }: { camera: CameraView | null }) {
  const map = useMap().current;
  useEffect(() => {
    if (!map || !camera) return;
    const [w, s, e, n] = cameraBbox(camera);
    const pad = 0.0006;
    map.fitBounds([w - pad, s - pad, e + pad, n + pad], { padding: 60, maxZoom: 18, duration: 600 });
  }, [map, camera]);
  return null;
}
