// The map benchmark's baseline page: MapLibre alone, no framework, drawing the same points as the
// mission page. Everything the two pages must share comes from the app's own modules at bench
// time — the offline basemap style, the cluster options, the layer specs and paints — and is
// inlined into the page as JSON, so the baseline cannot drift from what the app draws.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  SUBMISSION_CLUSTER_OPTIONS,
  SUBMISSIONS_SOURCE_ID,
  submissionClusterCountLayer,
  submissionClustersLayer,
  submissionPointsLayer,
} from "@/components/map/layers/layer-styles";
import { MAP_FADE_DURATION_MS } from "@/components/map/map-options";
import { offlineBasemapStyle } from "@/lib/map/basemap-style";
import { ROOT } from "./targets";

/** The mark the mission page sets (POINTS_DRAWN_MARK in app/(dashboard)/missions/[missionId]/mission-map.tsx). */
export const POINTS_DRAWN_MARK = "pm:submission-points-drawn";
/** How a request for MapLibre's worker is recognised, whatever the build named it. */
export const MAPLIBRE_WORKER_NAME = "maplibre-gl-worker";
/** What any map of the points needs: clusters, their counts, the points (no selection halo). */
export const BARE_SUBMISSION_LAYERS = [submissionClustersLayer, submissionClusterCountLayer, submissionPointsLayer] as const;
/** BaseMap's defaults for the first camera (boundsPadding, maxInitialZoom). */
export const FIT_BOUNDS_OPTIONS = { padding: 40, maxZoom: 16 } as const;

export const MAPLIBRE_DIST = join(ROOT, "node_modules/maplibre-gl/dist");

export interface BuiltWorker {
  /** Its path on the app, which the bare page serves it under too. */
  path: string;
  file: string;
}

/**
 * MapLibre's worker as the built app serves it: the bundler's content-hashed copy
 * (components/map/maplibre-worker.ts). The benchmark checks the mission page really loaded it.
 */
export function builtMaplibreWorker(root: string = ROOT): BuiltWorker {
  const dir = join(root, ".next", "static", "media");
  const name = readdirSync(dir).find((entry) => /^maplibre-gl-worker\.[\w-]+\.mjs$/.test(entry));
  if (!name) throw new Error(`no MapLibre worker in ${dir}: run npm run build`);
  return { path: `/_next/static/media/${name}`, file: join(dir, name) };
}
export const BASEMAP_DIR = join(ROOT, "public/basemap");

export interface BarePageOptions {
  /** The baseline server's origin (the style's URLs are absolute, as in the app). */
  origin: string;
  /** Where the baseline server serves MapLibre's worker (BuiltWorker.path). */
  workerPath: string;
  pointsPath: string;
  bbox: [number, number, number, number];
  /** CSS pixel size of the mission page's map canvas: drawing cost follows the canvas size. */
  width: number;
  height: number;
  /**
   * A line of text above the map. Lighthouse needs some content it recognises as painted (a
   * WebGL canvas alone ends in NO_FCP), so lighthouse-mission gives the page a heading, as the
   * mission page has one.
   */
  heading?: string;
}

// What the page does, in order: start fetching the points, create the map on the basemap with the
// mission's first camera, and once both the style and the points are there, add the clustered
// source and its layers, then mark the first `idle` — the moment the mission page marks too.
// data-map-state="ready" on load, as BaseMap sets it, only for the benchmark's breakdown.
const PAGE_SCRIPT = `
import * as maplibregl from "/maplibre-gl.mjs";
const config = JSON.parse(document.getElementById("config").textContent);
const points = fetch(config.pointsUrl).then((response) => response.json());
maplibregl.setWorkerUrl(config.workerUrl);
const map = new maplibregl.Map({
  container: "map",
  style: config.style,
  bounds: config.bbox,
  fitBoundsOptions: config.fitBoundsOptions,
  fadeDuration: config.fadeDuration,
  attributionControl: false,
});
map.on("load", async () => {
  map.getContainer().dataset.mapState = "ready";
  const data = await points;
  map.addSource(config.sourceId, { type: "geojson", data, ...config.sourceOptions });
  for (const layer of config.layers) map.addLayer(layer);
  map.once("idle", () => performance.mark(config.mark, { detail: { count: data.features.length } }));
});
`;

export function barePageHtml(options: BarePageOptions): string {
  const layers = BARE_SUBMISSION_LAYERS.map((layer) => ({ ...layer, source: SUBMISSIONS_SOURCE_ID }));
  const config = {
    mark: POINTS_DRAWN_MARK,
    pointsUrl: options.pointsPath,
    workerUrl: `${options.origin}${options.workerPath}`,
    style: offlineBasemapStyle(options.origin),
    bbox: options.bbox,
    fitBoundsOptions: FIT_BOUNDS_OPTIONS,
    fadeDuration: MAP_FADE_DURATION_MS,
    sourceId: SUBMISSIONS_SOURCE_ID,
    // As SubmissionsLayer configures its <Source>: ids promoted for feature-state, same clustering.
    sourceOptions: { promoteId: "id", ...SUBMISSION_CLUSTER_OPTIONS },
    layers,
  };
  return mapPageHtml({
    title: "Bare MapLibre: submission points",
    width: options.width,
    height: options.height,
    config,
    script: PAGE_SCRIPT,
    ...(options.heading ? { heading: options.heading } : {}),
  });
}

/**
 * A benchmark page around one MapLibre map: its size, an optional heading, the page's JSON config
 * (read by `script` from #config) and its module script, which imports MapLibre from
 * /maplibre-gl.mjs (the baseline server, startBareMapServer in lib/map-pages.ts).
 */
export function mapPageHtml(options: { title: string; width: number; height: number; config: unknown; script: string; heading?: string }): string {
  // `<` escaped: the JSON sits inside a <script> element.
  const json = JSON.stringify(options.config).replaceAll("<", "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${options.title}</title>
<link rel="stylesheet" href="/maplibre-gl.css">
<style>html, body { margin: 0; } #map { width: ${options.width}px; height: ${options.height}px; }</style>
</head>
<body>
${options.heading ? `<h1 style="font: 600 24px sans-serif; margin: 8px">${options.heading.replaceAll("<", "&lt;")}</h1>\n` : ""}<div id="map"></div>
<script type="application/json" id="config">${json}</script>
<script type="module">${options.script}</script>
</body>
</html>
`;
}
