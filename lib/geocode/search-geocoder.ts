/**
 * Place search through an external geocoder (GEOCODER_URL), called by the dashboard's server so
 * the browser talks only to our origin. Two common answer shapes are read: Nominatim's JSON
 * (`/search?format=jsonv2`: an array of {display_name, lat, lon, boundingbox}) and Photon's GeoJSON
 * (`/api`: features with [lng, lat] points and an optional extent). Anything else, a slow answer
 * or an error status is "unavailable": the search box then still has the offline place names.
 */
import { z } from "zod";

export interface GeocodedPlace {
  name: string;
  lat: number;
  lng: number;
  /** [west, south, east, north] when the geocoder gives an extent. */
  bbox: [number, number, number, number] | null;
}

export type GeocoderResult = { ok: true; places: GeocodedPlace[] } | { ok: false; reason: string };

export const GEOCODER_TIMEOUT_MS = 5000;
export const GEOCODER_LIMIT = 5;
export const MAX_GEOCODER_QUERY = 200;

const coordinate = z.coerce.number().finite();

const NominatimSchema = z.array(
  z.object({
    display_name: z.string().max(1000),
    lat: coordinate.min(-90).max(90),
    lon: coordinate.min(-180).max(180),
    // south, north, west, east — as strings.
    boundingbox: z.tuple([coordinate, coordinate, coordinate, coordinate]).optional(),
  }),
);

const PhotonSchema = z.object({
  features: z.array(
    z.object({
      geometry: z.object({ type: z.literal("Point"), coordinates: z.tuple([coordinate.min(-180).max(180), coordinate.min(-90).max(90)]).rest(z.number()) }),
      properties: z
        .object({
          name: z.string().max(500).optional(),
          city: z.string().max(500).optional(),
          state: z.string().max(500).optional(),
          country: z.string().max(500).optional(),
          // west, north, east, south.
          extent: z.tuple([coordinate, coordinate, coordinate, coordinate]).optional(),
        })
        .default({}),
    }),
  ),
});

function fromNominatim(rows: z.infer<typeof NominatimSchema>): GeocodedPlace[] {
  return rows.map((row) => ({
    name: row.display_name,
    lat: row.lat,
    lng: row.lon,
    bbox: row.boundingbox ? [row.boundingbox[2], row.boundingbox[0], row.boundingbox[3], row.boundingbox[1]] : null,
  }));
}

function fromPhoton(collection: z.infer<typeof PhotonSchema>): GeocodedPlace[] {
  return collection.features.map((feature) => {
    const { name, city, state, country, extent } = feature.properties;
    const [lng, lat] = feature.geometry.coordinates;
    const label = [...new Set([name, city, state, country].filter((part): part is string => Boolean(part)))].join(", ");
    return { name: label || `${lat}, ${lng}`, lat, lng, bbox: extent ? [extent[0], extent[3], extent[2], extent[1]] : null };
  });
}

export async function searchGeocoder(options: { url: string; query: string; signal?: AbortSignal; timeoutMs?: number }): Promise<GeocoderResult> {
  const query = options.query.trim().slice(0, MAX_GEOCODER_QUERY);
  if (query.length < 2) return { ok: true, places: [] };
  const url = new URL(options.url);
  url.searchParams.set("q", query);
  url.searchParams.set("limit", String(GEOCODER_LIMIT));
  // Nominatim answers HTML or XML without it on older versions; Photon ignores it.
  if (!url.searchParams.has("format")) url.searchParams.set("format", "jsonv2");
  const signals = [AbortSignal.timeout(options.timeoutMs ?? GEOCODER_TIMEOUT_MS), ...(options.signal ? [options.signal] : [])];
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json", "user-agent": "photo-missions-dashboard" },
      redirect: "error",
      signal: AbortSignal.any(signals),
    });
  } catch (error) {
    return {
      ok: false,
      reason: error instanceof Error && error.name === "TimeoutError" ? "The geocoder did not answer in time." : "The geocoder could not be reached.",
    };
  }
  if (!response.ok) return { ok: false, reason: `The geocoder answered ${response.status}.` };
  const body: unknown = await response.json().catch(() => undefined);
  const nominatim = NominatimSchema.safeParse(body);
  if (nominatim.success) return { ok: true, places: fromNominatim(nominatim.data).slice(0, GEOCODER_LIMIT) };
  const photon = PhotonSchema.safeParse(body);
  if (photon.success) return { ok: true, places: fromPhoton(photon.data).slice(0, GEOCODER_LIMIT) };
  return { ok: false, reason: "The geocoder's answer was not understood." };
}
