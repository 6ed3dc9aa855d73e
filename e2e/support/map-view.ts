// Web Mercator for the map page objects: where MapLibre puts a longitude/latitude on screen once it
// has fitted a bounding box into a map of a given size (its fitBounds: 512 px tiles, padding on
// every side, zoom capped), and back. Lets a test click a known place, or tell where it drew.

export type Bbox = [west: number, south: number, east: number, north: number];

export interface Pixel {
  x: number;
  y: number;
}

const TILE = 512;

function mercatorX(lng: number): number {
  return (lng + 180) / 360;
}

function mercatorY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}

function lngOf(x: number): number {
  return x * 360 - 180;
}

function latOf(y: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
}

/** The camera MapLibre chooses for `fitBounds(bbox, { padding, maxZoom })` in a width × height map. */
export class FittedView {
  readonly zoom: number;
  private readonly cx: number;
  private readonly cy: number;
  private readonly scale: number;

  constructor(
    bbox: Bbox,
    readonly width: number,
    readonly height: number,
    { padding = 40, maxZoom = 16 }: { padding?: number; maxZoom?: number } = {},
  ) {
    const [west, south, east, north] = bbox;
    const dx = mercatorX(east) - mercatorX(west);
    const dy = mercatorY(south) - mercatorY(north);
    const fit = Math.min((width - 2 * padding) / (dx * TILE), (height - 2 * padding) / (dy * TILE));
    this.zoom = Math.min(Math.log2(fit), maxZoom);
    this.scale = TILE * 2 ** this.zoom;
    this.cx = (mercatorX(west) + mercatorX(east)) / 2;
    this.cy = (mercatorY(north) + mercatorY(south)) / 2;
  }

  /** Pixel offset from the map's centre of a [lng, lat]. */
  toOffset([lng, lat]: [number, number]): Pixel {
    return { x: (mercatorX(lng) - this.cx) * this.scale, y: (mercatorY(lat) - this.cy) * this.scale };
  }

  /** [lng, lat] at a pixel offset from the map's centre. */
  toLngLat({ x, y }: Pixel): [number, number] {
    return [lngOf(this.cx + x / this.scale), latOf(this.cy + y / this.scale)];
  }
}

/** The camera of `jumpTo({ center, zoom })`: what the mission editor's search does for a point. */
export class CenteredView {
  private readonly cx: number;
  private readonly cy: number;
  private readonly scale: number;

  constructor(center: { lat: number; lng: number }, zoom: number) {
    this.cx = mercatorX(center.lng);
    this.cy = mercatorY(center.lat);
    this.scale = TILE * 2 ** zoom;
  }

  /** Pixel offset from the map's centre of a [lng, lat]. */
  toOffset([lng, lat]: [number, number]): Pixel {
    return { x: (mercatorX(lng) - this.cx) * this.scale, y: (mercatorY(lat) - this.cy) * this.scale };
  }

  /** [lng, lat] at a pixel offset from the map's centre. */
  toLngLat({ x, y }: Pixel): [number, number] {
    return [lngOf(this.cx + x / this.scale), latOf(this.cy + y / this.scale)];
  }
}
