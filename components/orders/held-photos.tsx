"use client";
// Photos held for review: their authenticity check found warning signs (the phone somewhere else
// than the photo's GPS says, an edited file, an old photo, a picture already sent), so they are
// not delivered until the account manager looks. Each shows the photo, the warning signs in plain
// words, and Approve (delivered with its location's set) or Reject (a retake with the reason).
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { reviewHeldPhoto } from "@/lib/dashboard/order-actions";
import { Button } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import { FormError } from "@/components/ui/states";
import { RETAKE_REASON_MAX } from "@/lib/orders/limits";
import { authenticitySignals } from "./authenticity-display";
import { photoEvidence } from "./check-evidence";
import { DetectedPhoto, EvidenceRows } from "./photo-evidence";
import { SignalList } from "./signal-list";
import { OrderTime } from "./order-time";
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
  const t = useTranslations("orders.held");
  // What was decided stays said here: the page's refresh takes the decided photo out of the list.
  const [decided, setDecided] = useState<string[]>([]);
  const held = assignments.filter((a) => a.status === "held_for_review" && a.photo_id && a.review);
  if (held.length === 0 && decided.length === 0) return null;
  return (
    <section aria-labelledby="held-h" className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="held-photos">
      <h2 id="held-h" className="text-lg font-semibold text-slate-900">
        {t("heading")} {held.length > 0 ? <span className="text-sm font-normal text-slate-600">· {t("photos", { count: held.length })}</span> : null}
      </h2>
      <p className="text-sm text-slate-700">{t("intro")}</p>
      {decided.map((text, i) => (
        <p key={i} role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="review-done">
          {text}
        </p>
      ))}
      <ul className="flex flex-col gap-4">
        {held.map((a) => (
          <HeldPhotoCard
            key={a.id}
            order={order}
            assignment={a}
            canEdit={canEdit}
            selected={a.photo_id === selectedPhotoId}
            onSelect={() => onSelectPhoto(a.photo_id === selectedPhotoId ? null : a.photo_id)}
            onDecided={(text) => setDecided((list) => [...list, text])}
          />
        ))}
      </ul>
    </section>
  );
}

function HeldPhotoCard({
  order,
  assignment,
  canEdit,
  selected,
  onSelect,
  onDecided,
}: {
  order: Order;
  assignment: OrderAssignment;
  canEdit: boolean;
  selected: boolean;
  onSelect: () => void;
  onDecided: (text: string) => void;
}) {
  const id = useId();
  const t = useTranslations("orders");
  const vocabulary = useTranslations("vocabulary");
  const location = order.locations.find((l) => l.location_id === assignment.location_id);
  const name = location?.name ?? assignment.location_id;
  const angleLabel = vocabulary(`angle.${assignment.angle}`);
  const signals = authenticitySignals(assignment.verification?.ai_checks.authenticity);
  const evidence = photoEvidence(assignment.verification?.ai_checks);
  const review = assignment.review;
  if (!review || !assignment.photo_id) return null;
  return (
    <li
      data-testid="held-photo"
      data-photo-id={assignment.photo_id}
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex flex-col gap-3 sm:flex-row">
        <DetectedPhoto src={review.preview_url} href={review.photo_url} alt={t("held.alt", { angle: angleLabel, name })} detections={evidence.detections} />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm">
          <h3 id={`${id}-title`} className="font-semibold text-slate-900">
            {name} · {angleLabel}
          </h3>
          <p className="text-xs text-slate-600">
            {t.rich("held.heldAt", { time: () => <OrderTime iso={review.held_at} /> })}
            {assignment.attempt > 0 ? ` · ${t("photos.retakeNumber", { attempt: assignment.attempt })}` : ""}
          </p>
          <SignalList signals={signals} label={t("held.why")} />
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            <EvidenceRows evidence={evidence} />
          </dl>
          <div className="mt-1">
            <Button variant="secondary" size="sm" aria-pressed={selected} onClick={onSelect}>
              {selected ? t("photos.shownOnMap") : t("held.showBoth")}
            </Button>
          </div>
        </div>
      </div>
      {canEdit ? (
        <ReviewForm orderId={order.id} photoId={assignment.photo_id} label={t("photos.angleOf", { angle: angleLabel, name })} onDecided={onDecided} />
      ) : null}
    </li>
  );
}

function ReviewForm({ orderId, photoId, label, onDecided }: { orderId: string; photoId: string; label: string; onDecided: (text: string) => void }) {
  const id = useId();
  const t = useTranslations("orders");
  const [rejecting, setRejecting] = useState(false);
  const [done, setDone] = useState(false);
  const { reason, setReason, pending, error, send } = useReasonedRequest({ reader: "photographer" });

  const decide = async (decision: "approve" | "reject") => {
    const sent = await send(
      (trimmed) => reviewHeldPhoto(decision === "approve" ? { orderId, photoId, decision } : { orderId, photoId, decision, reason: trimmed }),
      { needsReason: decision === "reject" },
    );
    if (!sent) return;
    setDone(true);
    onDecided(decision === "approve" ? t("held.approved") : t("held.rejected"));
  };

  if (done) return null;
  return (
    <div className="flex flex-col gap-2">
      {rejecting ? (
        <>
          <label htmlFor={`${id}-reason`} className="text-sm font-medium text-slate-800">
            {t("photos.reasonLabel")}
          </label>
          <textarea
            id={`${id}-reason`}
            rows={2}
            value={reason}
            maxLength={RETAKE_REASON_MAX}
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={error ? true : undefined}
            className={inputClasses}
            placeholder={t("held.reasonPlaceholder")}
          />
        </>
      ) : null}
      {error ? <FormError>{error}</FormError> : null}
      <div className="flex flex-wrap gap-2">
        {rejecting ? (
          <>
            <Button size="sm" variant="danger" disabled={pending} onClick={() => decide("reject")} aria-label={t("held.rejectLabel", { what: label })}>
              {pending ? t("photos.sending") : t("held.reject")}
            </Button>
            <Button size="sm" variant="ghost" disabled={pending} onClick={() => setRejecting(false)}>
              {t("photos.cancel")}
            </Button>
          </>
        ) : (
          <>
            <Button size="sm" disabled={pending} onClick={() => decide("approve")} aria-label={t("held.approveLabel", { what: label })}>
              {pending ? t("photos.sending") : t("held.approve")}
            </Button>
            <Button size="sm" variant="secondary" disabled={pending} onClick={() => setRejecting(true)} aria-label={t("held.rejectOpenLabel", { what: label })}>
              {t("held.rejectOpen")}
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
