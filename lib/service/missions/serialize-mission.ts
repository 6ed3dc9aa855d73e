import type { missions } from "@/lib/db/schema";
import type { Mission } from "@/lib/schemas/mission";
import type { PolygonGeometry } from "@/lib/geo/polygon";
import { effectiveThresholds } from "@/lib/service/qa/thresholds";
import { isoOrNull } from "@/lib/service/iso-or-null";

export type MissionRow = typeof missions.$inferSelect;

export function serializeMission(row: MissionRow): Mission {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    bounds: row.bounds as PolygonGeometry,
    required_images: row.requiredImages,
    submissions: row.submissionCount,
    approved_images: row.approvedImageCount,
    extra_images: Math.max(0, row.approvedImageCount - row.requiredImages),
    area_m2: Math.round(row.areaM2),
    qa: effectiveThresholds(row.qaSettings),
    order_id: row.orderId,
    order_reference: row.orderReference,
    location_id: row.locationId,
    deadline_at: isoOrNull(row.deadlineAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    completed_at: isoOrNull(row.completedAt),
    cancelled_at: isoOrNull(row.cancelledAt),
  };
}
