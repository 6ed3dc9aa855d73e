// MapLibre's code (≈ 300 kB gzip, its own chunk), requested once per page. react-map-gl imports it
// only when its <Map> mounts — after the page has hydrated and the map component's own chunk has
// arrived: two round trips in a row before the first byte of MapLibre. A page whose first view is
// a map calls loadMapLibre() as soon as its code runs, so the download (and V8's off-thread
// compile) overlaps hydration; BaseMap hands the same promise to react-map-gl.
type MapLibreModule = typeof import("maplibre-gl");

let pending: Promise<MapLibreModule> | null = null;

export function loadMapLibre(): Promise<MapLibreModule> {
  pending ??= import("maplibre-gl");
  return pending;
}
