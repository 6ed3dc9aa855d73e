/** Copied from maplibre-gl by scripts/copy-vendor-assets.mjs (bundled, MapLibre cannot find its worker). */
export const MAPLIBRE_WORKER_PATH = "/vendor/maplibre/maplibre-gl-worker.mjs";
