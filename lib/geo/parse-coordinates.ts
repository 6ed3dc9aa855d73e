/**
 * Reads a coordinate pair typed into a search box, as people copy them from maps and photos:
 * "43.7696, 11.2558" (latitude first, as most map apps show it), "43.7696 N 11.2558 E",
 * "11.2558E 43.7696N", "-33.86,151.21". Latitude comes first unless hemisphere letters say
 * otherwise or the first number cannot be a latitude (|value| > 90). null when it is not a pair.
 */
export interface LatLng {
  lat: number;
  lng: number;
}

const PART = /^([+-]?\d{1,3}(?:\.\d+)?)\s*°?\s*([NSEW])?$/i;

function parsePart(text: string): { value: number; axis: "lat" | "lng" | null } | null {
  const match = PART.exec(text.trim());
  if (!match?.[1]) return null;
  const letter = match[2]?.toUpperCase();
  let value = Number(match[1]);
  if (letter && value < 0) return null; // "-43 S" is ambiguous: refuse rather than guess.
  if (letter === "S" || letter === "W") value = -value;
  const axis = letter === "N" || letter === "S" ? "lat" : letter === "E" || letter === "W" ? "lng" : null;
  return { value, axis };
}

export function parseCoordinates(query: string): LatLng | null {
  const text = query.trim();
  // Split on a comma or semicolon, else on the whitespace between the two numbers.
  const pieces = /[,;]/.test(text) ? text.split(/[,;]/) : (/^(\S+(?:\s*°?\s*[NSEW])?)\s+(.+)$/i.exec(text)?.slice(1) ?? []);
  if (pieces.length !== 2) return null;
  const [first, second] = pieces.map(parsePart);
  if (!first || !second) return null;
  if (first.axis !== null && first.axis === second.axis) return null;
  const firstIsLng = first.axis === "lng" || second.axis === "lat" || (first.axis === null && second.axis === null && Math.abs(first.value) > 90);
  const lat = firstIsLng ? second.value : first.value;
  const lng = firstIsLng ? first.value : second.value;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}
