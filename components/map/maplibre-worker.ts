/**
 * MapLibre's worker script, as the bundler ships it: `new URL(…, import.meta.url)` makes Turbopack
 * emit the package's worker under a content-hashed name (/_next/static/media/
 * maplibre-gl-worker.<hash>.mjs), which `npm start` sends precompressed and cacheable for a year
 * (lib/http/next-static.ts), and `next dev` serves too. MapLibre's own guess at its worker's URL
 * (next to its module, under its published name) does not survive bundling, so every map and the
 * prewarm point it here. Browser only: on the server the URL means nothing.
 */
export function maplibreWorkerUrl(): string {
  return new URL("maplibre-gl/dist/maplibre-gl-worker.mjs", import.meta.url).href;
}
