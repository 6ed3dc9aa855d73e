// An order's delivered photos as a streamed ZIP — the whole order, or one of its locations: each
// photo's original bytes (EXIF preserved) under photos/{location_id}/, plus metadata.json with the
// order and, per photo, its location, cycle, angle, capture facts, SHA-256 and the verification
// it passed. Beside them, each photo's signed evidence as stored at delivery,
// evidence/{photo_id}.jws, and evidence/jwks.json: the service's published keys at export time
// (retired ones included), so the archive verifies offline, years on. Built on the same stored-ZIP
// code as the mission export (exact size up front, constant memory — each signature is read from
// the database when the archive reaches it — ZIP64). Entry names come from ids and the angle
// enumeration only.
import { Readable } from "node:stream";
import { and, asc, eq, gt, isNotNull } from "drizzle-orm";
import { assignments, images, orderLocations, submissions } from "@/lib/db/schema";
import { photoFileExtension } from "@/lib/photos/photo-types";
import type { ServiceContext } from "@/lib/service/context";
import { notFound } from "@/lib/service/errors";
import { getOrderRow } from "@/lib/service/orders/order-rows";
import { withStoredEvidence } from "@/lib/service/orders/photo-evidence";
import { storedZip, type StoredFile, type StoredZip } from "./stored-zip";

const PAGE = 500;

/**
 * photos/{location_id}/cycle-{nnn}-{angle}-{photo_id}.{ext}: `nnn` is the cycle as the pages count it,
 * from 001 (the API's 0-based `cycle_index` + 1, as "cycle 1" on the order page).
 */
export function orderPhotoEntryName(photo: { locationId: string; cycleIndex: number; angle: string; imageId: string; contentType: string }): string {
  return `photos/${photo.locationId}/cycle-${String(photo.cycleIndex + 1).padStart(3, "0")}-${photo.angle}-${photo.imageId}.${photoFileExtension(photo.contentType)}`;
}

export const EVIDENCE_JWKS_ENTRY = "evidence/jwks.json";

export function evidenceEntryName(photoId: string): string {
  return `evidence/${photoId}.jws`;
}

async function* deliveredPages(ctx: ServiceContext, orgId: string, orderId: string, locationId: string | null): AsyncGenerator<Delivered[]> {
  let after = "";
  for (;;) {
    const page = await ctx.db
      .select({ assignment: assignments, image: images, submission: submissions })
      .from(assignments)
      .innerJoin(images, eq(images.id, assignments.imageId))
      .leftJoin(submissions, eq(submissions.id, assignments.submissionId))
      .where(
        and(
          eq(assignments.orderId, orderId),
          eq(assignments.orgId, orgId),
          isNotNull(assignments.deliveredAt),
          locationId ? eq(assignments.locationId, locationId) : undefined,
          gt(assignments.id, after),
        ),
      )
      .orderBy(asc(assignments.id))
      .limit(PAGE);
    if (page.length === 0) return;
    yield await withStoredEvidence(ctx, page);
    after = page.at(-1)?.assignment.id ?? after;
  }
}

interface Delivered {
  assignment: typeof assignments.$inferSelect;
  image: typeof images.$inferSelect;
  evidence: string;
}

function photoRecord({ assignment, image }: Delivered) {
  const verification = assignment.verification as { ai_checks?: Record<string, unknown> } | null;
  return {
    photo_id: image.id,
    file: orderPhotoEntryName({
      locationId: assignment.locationId,
      cycleIndex: assignment.cycleIndex,
      angle: assignment.angle,
      imageId: image.id,
      contentType: image.contentType,
    }),
    location_id: assignment.locationId,
    cycle_index: assignment.cycleIndex,
    angle: assignment.angle,
    attempt: assignment.attempt,
    mission_id: assignment.missionId,
    delivered_at: assignment.deliveredAt?.toISOString() ?? null,
    sha256: image.sha256,
    byte_size: image.byteSize,
    captured_at: image.capturedAt?.toISOString() ?? null,
    gps: image.lat !== null && image.lng !== null ? { lat: image.lat, lng: image.lng } : null,
    direction_deg: image.directionDeg,
    device: [image.deviceMake, image.deviceModel].filter(Boolean).join(" ") || null,
    weather: assignment.weather ?? null,
    verification: { status: "approved", ai_checks: verification?.ai_checks ?? {} },
    evidence: evidenceEntryName(image.id),
  };
}

/** The stored JWS, read again when the archive reaches its entry (not held for the whole archive). */
async function readEvidence(ctx: ServiceContext, assignmentId: string): Promise<Buffer> {
  const [row] = await ctx.db.select({ evidence: assignments.evidenceJws }).from(assignments).where(eq(assignments.id, assignmentId)).limit(1);
  return Buffer.from(row?.evidence ?? "", "utf8");
}

export interface OrderPhotosExport extends StoredZip {
  filename: string;
  /** The photos alone (fileCount also counts the evidence files). */
  photoCount: number;
}

/** The archive of an order's delivered photos (404 for another organisation's order or an unknown location). */
export async function exportOrderPhotos(
  ctx: ServiceContext,
  { orgId, orderId, locationId = null }: { orgId: string; orderId: string; locationId?: string | null },
): Promise<OrderPhotosExport> {
  const order = await getOrderRow(ctx.db, orgId, orderId);
  if (locationId) {
    const [location] = await ctx.db
      .select({ id: orderLocations.id })
      .from(orderLocations)
      .where(and(eq(orderLocations.orderId, order.id), eq(orderLocations.id, locationId)))
      .limit(1);
    if (!location) throw notFound("location");
  }
  const exportedAt = new Date();

  function metadata(): Readable {
    async function* generate() {
      const head = {
        format: "photo-missions-order-photos/1",
        exported_at: exportedAt.toISOString(),
        order: { id: order.id, client_reference: order.clientReference, status: order.status, category: order.category },
        location_id: locationId,
      };
      yield `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "photos": [`;
      let first = true;
      for await (const page of deliveredPages(ctx, orgId, order.id, locationId)) {
        for (const row of page) {
          yield `${first ? "" : ","}\n    ${JSON.stringify(photoRecord(row))}`;
          first = false;
        }
      }
      yield `\n  ]\n}\n`;
    }
    return Readable.from(generate());
  }

  let photoCount = 0;
  async function* files(): AsyncGenerator<StoredFile[]> {
    for await (const page of deliveredPages(ctx, orgId, order.id, locationId)) {
      photoCount += page.length;
      yield page.flatMap(({ assignment, image, evidence }): StoredFile[] => [
        {
          name: orderPhotoEntryName({
            locationId: assignment.locationId,
            cycleIndex: assignment.cycleIndex,
            angle: assignment.angle,
            imageId: image.id,
            contentType: image.contentType,
          }),
          storageKey: image.storageKey,
          byteSize: image.byteSize,
          mtime: image.createdAt,
        },
        {
          name: evidenceEntryName(image.id),
          byteSize: Buffer.byteLength(evidence, "utf8"),
          mtime: assignment.deliveredAt ?? exportedAt,
          read: () => readEvidence(ctx, assignment.id),
        },
      ]);
    }
    const jwks = Buffer.from(`${JSON.stringify(ctx.keys.jwks(), null, 2)}\n`, "utf8");
    yield [{ name: EVIDENCE_JWKS_ENTRY, byteSize: jwks.length, mtime: exportedAt, read: async () => jwks }];
  }

  const archive = await storedZip(ctx, files(), { name: "metadata.json", mtime: exportedAt, create: metadata }, { order_id: order.id });
  return { ...archive, photoCount, filename: locationId ? `${order.id}-${locationId}.zip` : `${order.id}.zip` };
}
