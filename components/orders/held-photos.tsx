"use client";
// Photos held for review: their authenticity check found warning signs (the phone somewhere else
// than the photo's GPS says, an edited file, an old photo, a picture already sent), so they are
// not delivered until the account manager looks. Each shows the photo, the warning signs in plain
// words, and Approve (delivered with its location's set) or Reject (a retake with the reason).
import { useId, useState } from "react";
import { reviewHeldPhoto } from "@/lib/dashboard/order-actions";
import { Button } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import { LocalDateTime } from "@/components/ui/local-time";
import { FormError } from "@/components/ui/states";
import { ANGLE_LABELS } from "@/lib/orders/vocabulary";
import { RETAKE_REASON_MAX } from "@/lib/orders/limits";
import { authenticitySignals } from "./authenticity-display";
import { photoEvidence } from "./check-evidence";
import { DetectedPhoto, EvidenceRows } from "./photo-evidence";
import { SignalList } from "./signal-list";
import { useReasonedRequest } from "./use-reasoned-request";
import type { Order, OrderAssignment } from "./types";

export function HeldPhotos({
  order,
  assignments,
  canEdit,
  selectedPhotoId,
  onSelectPhoto,
}: {
  order: Order;
  assignments: OrderAssignment[];
  canEdit: boolean;
  selectedPhotoId: string | null;
  onSelectPhoto: (photoId: string | null) => void;
}) {
  const held = assignments.filter((a) => a.status === "held_for_review" && a.photo_id && a.review);
  if (held.length === 0) return null;
  return (
    <section aria-labelledby="held-h" className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="held-photos">
      <h2 id="held-h" className="text-lg font-semibold text-slate-900">
        Waiting for your review <span className="text-sm font-normal text-slate-600">· {held.length} photo{held.length === 1 ? "" : "s"}</span>
      </h2>
      <p className="text-sm text-slate-700">
        Something about these photos looks wrong, so they were not delivered. Look at the signs below and decide: approve to deliver the photo, or reject it to have it
        taken again. The photographer is only told that their photo is being reviewed.
      </p>
      <ul className="flex flex-col gap-4">
        {held.map((a) => (
          <HeldPhotoCard
            key={a.id}
            order={order}
            assignment={a}
            canEdit={canEdit}
            selected={a.photo_id === selectedPhotoId}
            onSelect={() => onSelectPhoto(a.photo_id === selectedPhotoId ? null : a.photo_id)}
          />
        ))}
      </ul>
    </section>
  );
}

function HeldPhotoCard({ order, assignment, canEdit, selected, onSelect }: { order: Order; assignment: OrderAssignment; canEdit: boolean; selected: boolean; onSelect: () => void }) {
  const id = useId();
  const location = order.locations.find((l) => l.location_id === assignment.location_id);
  const name = location?.name ?? assignment.location_id;
  const angleLabel = ANGLE_LABELS[assignment.angle];
  const signals = authenticitySignals(assignment.verification?.ai_checks.authenticity);
  const evidence = photoEvidence(assignment.verification?.ai_checks);
  const review = assignment.review;
  if (!review || !assignment.photo_id) return null;
  return (
    <li data-testid="held-photo" data-photo-id={assignment.photo_id} aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-col gap-3 sm:flex-row">
        <DetectedPhoto src={review.preview_url} href={review.photo_url} alt={`${angleLabel} of ${name}, held for review`} detections={evidence.detections} />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm">
          <h3 id={`${id}-title`} className="font-semibold text-slate-900">
            {name} · {angleLabel}
          </h3>
          <p className="text-xs text-slate-600">
            Held <LocalDateTime iso={review.held_at} />
            {assignment.attempt > 0 ? ` · retake ${assignment.attempt}` : ""}
          </p>
          <SignalList signals={signals} label="Why it is held" />
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            <EvidenceRows evidence={evidence} />
          </dl>
          <div className="mt-1">
            <Button variant="secondary" size="sm" aria-pressed={selected} onClick={onSelect}>
              {selected ? "Shown on the map" : "Show both positions on the map"}
            </Button>
          </div>
        </div>
      </div>
      {canEdit ? <ReviewForm orderId={order.id} photoId={assignment.photo_id} label={`${angleLabel} of ${name}`} /> : null}
    </li>
  );
}

function ReviewForm({ orderId, photoId, label }: { orderId: string; photoId: string; label: string }) {
  const id = useId();
  const [rejecting, setRejecting] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const { reason, setReason, pending, error, send } = useReasonedRequest({ reader: "photographer" });

  const decide = async (decision: "approve" | "reject") => {
    const sent = await send((trimmed) => reviewHeldPhoto(decision === "approve" ? { orderId, photoId, decision } : { orderId, photoId, decision, reason: trimmed }), { needsReason: decision === "reject" });
    if (sent) setDone(decision === "approve" ? "Approved: the photo is delivered with the rest of its location." : "Rejected: a new task is open for this location and angle, with your reason.");
  };

  if (done) {
    return (
      <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="review-done">
        {done}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      {rejecting ? (
        <>
          <label htmlFor={`${id}-reason`} className="text-sm font-medium text-slate-800">
            What should the photographer do differently?
          </label>
          <textarea
            id={`${id}-reason`}
            rows={2}
            value={reason}
            maxLength={RETAKE_REASON_MAX}
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={error ? true : undefined}
            className={inputClasses}
            placeholder="e.g. Take the photo at the place itself, with the phone's own camera."
          />
        </>
      ) : null}
      {error ? <FormError>{error}</FormError> : null}
      <div className="flex flex-wrap gap-2">
        {rejecting ? (
          <>
            <Button size="sm" variant="danger" disabled={pending} onClick={() => decide("reject")} aria-label={`Reject the ${label} and ask for a retake`}>
              {pending ? "Sending…" : "Reject and ask for a retake"}
            </Button>
            <Button size="sm" variant="ghost" disabled={pending} onClick={() => setRejecting(false)}>
              Cancel
            </Button>
          </>
        ) : (
          <>
            <Button size="sm" disabled={pending} onClick={() => decide("approve")} aria-label={`Approve the ${label} and deliver it`}>
              {pending ? "Sending…" : "Approve and deliver"}
            </Button>
            <Button size="sm" variant="secondary" disabled={pending} onClick={() => setRejecting(true)} aria-label={`Reject the ${label}`}>
              Reject…
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
