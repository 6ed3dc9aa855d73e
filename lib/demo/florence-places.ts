// Real places in Florence for the demo: where the simulated partner publishes missions (each a
// different shape, size and target around one of them) and what its orders photograph.
import type { PolygonGeometry } from "@/lib/geo/polygon";

export interface FlorencePlace {
  /** Short id, used in order location ids (`loc_<key>`) and to avoid two live missions at one place. */
  key: string;
  name: string;
  lat: number;
  lng: number;
  /** What a mission there asks for. */
  brief: string;
}

export const FLORENCE_PLACES: readonly FlorencePlace[] = [
  { key: "duomo", name: "Duomo", lat: 43.7731, lng: 11.256, brief: "The cathedral front and the baptistery doors, any angle." },
  { key: "ponte_vecchio", name: "Ponte Vecchio", lat: 43.768, lng: 11.2531, brief: "The bridge from both banks and the goldsmiths' shops." },
  { key: "signoria", name: "Piazza della Signoria", lat: 43.7696, lng: 11.2558, brief: "The square, the Loggia dei Lanzi and the Neptune fountain." },
  { key: "palazzo_vecchio", name: "Palazzo Vecchio", lat: 43.7693, lng: 11.2563, brief: "The town hall's façade and the tower from the square." },
  { key: "uffizi", name: "Uffizi", lat: 43.7678, lng: 11.2553, brief: "The courtyard between the two wings, looking toward the river." },
  { key: "santa_croce", name: "Santa Croce", lat: 43.7686, lng: 11.2622, brief: "The basilica entrance and the statue of Dante." },
  { key: "santa_maria_novella", name: "Santa Maria Novella", lat: 43.7746, lng: 11.2493, brief: "The marble façade and the lawn in front of it." },
  { key: "mercato_centrale", name: "Mercato Centrale", lat: 43.7765, lng: 11.2535, brief: "Stalls around the market hall and its entrances." },
  { key: "san_lorenzo", name: "San Lorenzo", lat: 43.7749, lng: 11.2541, brief: "The unfinished façade and the Medici chapels' entrance." },
  { key: "repubblica", name: "Piazza della Repubblica", lat: 43.7714, lng: 11.2542, brief: "The arch, the carousel and the café terraces." },
  { key: "annunziata", name: "Piazza Santissima Annunziata", lat: 43.7767, lng: 11.2593, brief: "The loggias on three sides of the square." },
  { key: "pitti", name: "Palazzo Pitti", lat: 43.7651, lng: 11.25, brief: "The long rusticated front and the sloping piazza." },
  { key: "santo_spirito", name: "Santo Spirito", lat: 43.767, lng: 11.248, brief: "The plain church front and the market square." },
  { key: "michelangelo", name: "Piazzale Michelangelo", lat: 43.7629, lng: 11.2651, brief: "The view over the city from the terrace." },
  { key: "san_miniato", name: "San Miniato al Monte", lat: 43.7594, lng: 11.265, brief: "The church front and the stairs up to it." },
  { key: "sant_ambrogio", name: "Mercato di Sant'Ambrogio", lat: 43.7697, lng: 11.2665, brief: "Fruit and vegetable stalls outside the market." },
  { key: "carmine", name: "Santa Maria del Carmine", lat: 43.768, lng: 11.244, brief: "The church and the square in front of it." },
  { key: "fortezza", name: "Fortezza da Basso", lat: 43.781, lng: 11.247, brief: "The walls and the main gate of the fortress." },
];

export function placeByKey(key: string): FlorencePlace {
  const place = FLORENCE_PLACES.find((p) => p.key === key);
  if (!place) throw new Error(`no Florence place ${key}`);
  return place;
}

const METRES_PER_DEG_LAT = 111_320;

/** The point `metres` from `from` toward `bearingDeg` (flat Earth: fine over a few hundred metres). */
export function offsetPoint(from: { lat: number; lng: number }, metres: number, bearingDeg: number): { lat: number; lng: number } {
  const b = (bearingDeg * Math.PI) / 180;
  const lat = from.lat + (metres * Math.cos(b)) / METRES_PER_DEG_LAT;
  const lng = from.lng + (metres * Math.sin(b)) / (METRES_PER_DEG_LAT * Math.cos((from.lat * Math.PI) / 180));
  return { lat, lng };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

function ringOf(points: { lat: number; lng: number }[]): PolygonGeometry {
  const coords: [number, number][] = points.map((p) => [round6(p.lng), round6(p.lat)]);
  const first = coords[0];
  return { type: "Polygon", coordinates: [first ? [...coords, first] : coords] };
}

export type MissionShape = "rectangle" | "street" | "triangle" | "polygon";

export interface DemoMissionDraft {
  title: string;
  description: string;
  bounds: PolygonGeometry;
  required_images: number;
  shape: MissionShape;
}

const TARGETS = [5, 8, 10, 12, 15, 20, 25, 30] as const;

const TITLES: Record<MissionShape, (place: FlorencePlace) => string> = {
  rectangle: (p) => `${p.name} — around the square`,
  street: (p) => `${p.name} — along the street`,
  triangle: (p) => `${p.name} — corner views`,
  polygon: (p) => `${p.name} — the whole area`,
};

/**
 * A mission at `place`: a rotated rectangle, a long thin strip along a street, a triangle or an
 * irregular polygon of 5–8 corners, 40–220 m across, asking for one of several targets.
 */
export function demoMissionAt(place: FlorencePlace, random: () => number): DemoMissionDraft {
  const shapes: MissionShape[] = ["rectangle", "street", "triangle", "polygon"];
  const shape = shapes[Math.floor(random() * shapes.length)] ?? "polygon";
  const turn = random() * 360;
  const size = 40 + random() * 180;
  let corners: { lat: number; lng: number }[];
  if (shape === "rectangle" || shape === "street") {
    const [long, short] = shape === "street" ? [size * 1.6, 18 + random() * 15] : [size, size * (0.5 + random() * 0.5)];
    const half = Math.hypot(long, short) / 2;
    const spread = (Math.atan2(short, long) * 180) / Math.PI;
    corners = [turn + spread, turn + 180 - spread, turn + 180 + spread, turn + 360 - spread].map((b) => offsetPoint(place, half, b));
  } else {
    // Corners in order of their bearing, each at its own distance: never self-intersecting.
    const n = shape === "triangle" ? 3 : 5 + Math.floor(random() * 4);
    corners = Array.from({ length: n }, (_, i) => offsetPoint(place, (size / 2) * (0.65 + random() * 0.35), turn + (360 / n) * (i + (random() - 0.5) * 0.5)));
  }
  const required = TARGETS[Math.floor(random() * TARGETS.length)] ?? 10;
  return {
    title: TITLES[shape](place),
    description: `${place.brief} ${required} photos, taken inside the area.`,
    bounds: ringOf(corners),
    required_images: required,
    shape,
  };
}
