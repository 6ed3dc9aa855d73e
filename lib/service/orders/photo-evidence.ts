// The signed verification record of a delivered photo: the photo's id, the SHA-256 of its original
// bytes, every check with its value and threshold (the authenticity signals too), the positions
// (target, EXIF, phone) and the times, as a compact JWS signed with the service's token key — the
// `kid` is in the published JWKS (/.well-known/jwks.json), so anyone can check it offline with the
// photo in hand (the SDKs' verifyEvidence / verify_evidence). Signed once, at delivery, and STORED
// (assignments.evidence_jws): the photo record, the evidence route and the order's ZIP answer those
// exact bytes, before and after a key rotation (retired keys stay published, lib/service/keys/tokens.ts).
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { decodeJwt } from "jose";
import { assignments, images, submissions } from "@/lib/db/schema";
import type { ServiceContext } from "@/lib/service/context";
import { notFound } from "@/lib/service/errors";
import { getOrderRow } from "./order-rows";

export const EVIDENCE_TYP = "photo-evidence+jwt";

type AssignmentRow = typeof assignments.$inferSelect;
type ImageRow = typeof images.$inferSelect;
type SubmissionRow = typeof submissions.$inferSelect;

interface StoredCheck {
  status?: unknown;
  passed?: unknown;
  score?: unknown;
  value?: unknown;
  threshold?: unknown;
  extra?: { signals?: unknown };
}

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** The record's claims (besides iss and iat). */
export function evidenceRecord(assignment: AssignmentRow, image: ImageRow, submission: SubmissionRow | null) {
  const stored = (assignment.verification as { status?: string; ai_checks?: Record<string, StoredCheck> } | null) ?? {};
  const checks = Object.entries(stored.ai_checks ?? {}).map(([check, c]) => ({
    check,
    status: c.status ?? null,
    passed: c.passed === true,
    score: typeof c.score === "number" ? c.score : null,
    value: c.value ?? null,
    threshold: c.threshold ?? null,
    ...(Array.isArray(c.extra?.signals) ? { signals: c.extra.signals } : {}),
  }));
  return {
    photo_id: image.id,
    order_id: assignment.orderId,
    location_id: assignment.locationId,
    angle: assignment.angle,
    sha256: image.sha256,
    byte_size: image.byteSize,
    verification: stored.status ?? null,
    checks,
    review: assignment.reviewDecision ? { decision: assignment.reviewDecision, reviewed_at: iso(assignment.reviewedAt) } : null,
    positions: {
      target: { lat: assignment.lat, lng: assignment.lng },
      exif: image.lat !== null && image.lng !== null ? { lat: image.lat, lng: image.lng, accuracy_m: image.accuracyM } : null,
      device:
        submission && submission.deviceLat !== null && submission.deviceLng !== null
          ? { lat: submission.deviceLat, lng: submission.deviceLng, accuracy_m: submission.deviceAccuracyM }
          : null,
    },
    times: {
      captured_at: iso(image.capturedAt),
      device_captured_at: iso(submission?.deviceCapturedAt),
      received_at: iso(submission?.createdAt ?? image.createdAt),
      verified_at: iso(assignment.reviewedAt ?? assignment.completedAt),
    },
  };
}

export type EvidenceRecord = ReturnType<typeof evidenceRecord>;

export async function signEvidence(ctx: ServiceContext, assignment: AssignmentRow, image: ImageRow, submission: SubmissionRow | null): Promise<string> {
  const record = evidenceRecord(assignment, image, submission);
  const verifiedAt = assignment.reviewedAt ?? assignment.completedAt ?? image.createdAt;
  return ctx.keys.signRecord(record, { typ: EVIDENCE_TYP, issuedAt: Math.floor(verifiedAt.getTime() / 1000) });
}

export interface DeliveredRow {
  assignment: AssignmentRow;
  image: ImageRow;
  submission: SubmissionRow | null;
}

/**
 * The rows with their stored evidence. A photo delivered before evidence was stored has none: it is
 * signed now, once, and stored (a concurrent reader's copy wins, so every reader sees one JWS).
 */
export async function withStoredEvidence<R extends DeliveredRow>(ctx: ServiceContext, rows: readonly R[]): Promise<(R & { evidence: string })[]> {
  const out: (R & { evidence: string })[] = [];
  for (const row of rows) {
    let evidence = row.assignment.evidenceJws;
    if (evidence === null) {
      const signed = await signEvidence(ctx, row.assignment, row.image, row.submission);
      const [stored] = await ctx.db
        .update(assignments)
        .set({ evidenceJws: signed })
        .where(and(eq(assignments.id, row.assignment.id), isNull(assignments.evidenceJws)))
        .returning({ evidence: assignments.evidenceJws });
      evidence = stored?.evidence ?? (await storedEvidenceOf(ctx, row.assignment.id)) ?? signed;
    }
    out.push({ ...row, assignment: { ...row.assignment, evidenceJws: evidence }, evidence });
  }
  return out;
}

async function storedEvidenceOf(ctx: ServiceContext, assignmentId: string): Promise<string | null> {
  const [row] = await ctx.db.select({ evidence: assignments.evidenceJws }).from(assignments).where(eq(assignments.id, assignmentId)).limit(1);
  return row?.evidence ?? null;
}

/** A delivered photo's signed record as stored at delivery, for the partner whose order it is (404 for anyone else, and for photos not delivered). */
export async function getPhotoEvidence(ctx: ServiceContext, { orgId, orderId, photoId }: { orgId: string; orderId: string; photoId: string }) {
  await getOrderRow(ctx.db, orgId, orderId);
  const rows = await ctx.db
    .select({ assignment: assignments, image: images, submission: submissions })
    .from(assignments)
    .innerJoin(images, eq(images.id, assignments.imageId))
    .leftJoin(submissions, eq(submissions.id, assignments.submissionId))
    .where(and(eq(assignments.orderId, orderId), eq(assignments.orgId, orgId), eq(assignments.imageId, photoId), isNotNull(assignments.deliveredAt)))
    .limit(1);
  const [row] = await withStoredEvidence(ctx, rows);
  if (!row) throw notFound("delivered photo");
  return {
    photo_id: photoId,
    evidence: row.evidence,
    // The signed claims themselves, decoded for reading (not verified here: we made them).
    record: decodeJwt(row.evidence),
  };
}
