// What a zoomer may see of open missions near where they stand: public fields only (no
// organisation, no counts of other people's work beyond what is still needed).
import { and, eq, gte, isNull, lte } from "drizzle-orm";
import { centroid, distance, point, polygon as turfPolygon } from "@turf/turf";
import type { Db } from "@/lib/db/client";
import { missions } from "@/lib/db/schema";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { distanceOutsideBounds } from "@/lib/service/qa/checks";

export interface OpenMission {
  id: string;
  title: string;
  description: string;
  bounds: PolygonGeometry;
  required_images: number;
  images_still_needed: number;
  distance_m: number;
  created_at: string;
}

export async function openMissionsNear({
  db,
  lat,
  lng,
  radiusKm,
  limit,
}: {
  db: Db;
  lat: number;
  lng: number;
  radiusKm: number;
  limit: number;
}): Promise<OpenMission[]> {
  const dLat = radiusKm / 111.32;
  const dLng = radiusKm / (111.32 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  const rows = await db
    .select()
    .from(missions)
    .where(
      and(
        eq(missions.status, "active"),
        // An order's missions are offered as tasks (GET /field/assignments), angle by angle.
        isNull(missions.orderId),
        lte(missions.minLat, lat + dLat),
        gte(missions.maxLat, lat - dLat),
        lte(missions.minLng, lng + dLng),
        gte(missions.maxLng, lng - dLng),
      ),
    )
    .limit(500);
  return rows
    .map((row) => {
      const bounds = row.bounds as PolygonGeometry;
      const outside = distanceOutsideBounds(bounds, lng, lat);
      return {
        id: row.id,
        title: row.title,
        description: row.description,
        bounds,
        required_images: row.requiredImages,
        images_still_needed: Math.max(0, row.requiredImages - row.approvedImageCount),
        distance_m: Math.max(0, Math.round(outside)),
        created_at: row.createdAt.toISOString(),
        centreDistance: distance(point([lng, lat]), centroid(turfPolygon(bounds.coordinates)), { units: "meters" }),
      };
    })
    .filter((m) => m.distance_m <= radiusKm * 1000)
    .sort((a, b) => a.distance_m - b.distance_m || a.centreDistance - b.centreDistance)
    .slice(0, limit)
    .map((m): OpenMission => ({
      id: m.id,
      title: m.title,
      description: m.description,
      bounds: m.bounds,
      required_images: m.required_images,
      images_still_needed: m.images_still_needed,
      distance_m: m.distance_m,
      created_at: m.created_at,
    }));
}
