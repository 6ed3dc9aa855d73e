// Offline place search over the bundled basemap's place names (public/basemap/places.geojson,
// about 10,000 GeoNames cities and towns): the file the offline map already uses (fetched once, on
// first search, by components/map/use-place-index.ts), matched without accents or case, best
// matches first.

export interface Place {
  name: string;
  kind: string;
  lat: number;
  lng: number;
}

/** Lower case, no accents, single spaces: "São  Paulo" → "sao paulo". */
export function foldName(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

interface PlaceFeature {
  properties?: { name?: unknown; class?: unknown };
  geometry?: { type?: unknown; coordinates?: unknown };
}

export function placesFromGeoJson(json: unknown): Place[] {
  const features = (json as { features?: unknown })?.features;
  if (!Array.isArray(features)) return [];
  return (features as PlaceFeature[]).flatMap((f) => {
    const [lng, lat] = Array.isArray(f.geometry?.coordinates) ? (f.geometry.coordinates as unknown[]) : [];
    const name = f.properties?.name;
    if (typeof name !== "string" || typeof lat !== "number" || typeof lng !== "number") return [];
    return [{ name, kind: typeof f.properties?.class === "string" ? f.properties.class : "place", lat, lng }];
  });
}

export interface PlaceIndex {
  places: Place[];
  folded: string[];
}

export function indexPlaces(places: Place[]): PlaceIndex {
  return { places, folded: places.map((p) => foldName(p.name)) };
}

/**
 * Places named exactly the query, then those whose name starts with it, then those with a word
 * starting with it, then any other containing it; the file is ordered by population, so within
 * each group bigger places come first.
 */
export function searchPlaces(index: PlaceIndex, query: string, limit = 8): Place[] {
  const q = foldName(query);
  if (q.length < 2) return [];
  const exact: Place[] = [];
  const starts: Place[] = [];
  const words: Place[] = [];
  const contains: Place[] = [];
  for (let i = 0; i < index.places.length && exact.length < limit; i++) {
    const name = index.folded[i] ?? "";
    const place = index.places[i];
    if (!place) continue;
    if (name === q) exact.push(place);
    else if (name.startsWith(q)) starts.push(place);
    else if (name.includes(` ${q}`) || name.includes(`-${q}`)) words.push(place);
    else if (name.includes(q)) contains.push(place);
  }
  return [...exact, ...starts, ...words, ...contains].slice(0, limit);
}
