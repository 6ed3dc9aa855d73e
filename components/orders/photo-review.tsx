"use client";
// Review of an order's delivered photos: a gallery per location and angle; beside each photo its
// verification — every check passed, failed or not evaluated (never shown as passed without
// evidence) with the measured value and the threshold — where the camera stood and which way it
// faced (also drawn on the map), and, for editors, "request a retake" with a reason. Each location
// downloads as a ZIP, and a recurring order's cycles compare side by side.
import { useId, useMemo, useState } from "react";
import { requestPhotoRetake } from "@/lib/dashboard/order-actions";
import { Button } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import { LocalDateTime } from "@/components/ui/local-time";
import { FormError } from "@/components/ui/states";
import { useServerText } from "@/components/ui/use-server-text";
import { ZipDownloadButton } from "@/components/ui/zip-download-button";
import { bearingDeg, compassPointName, distanceM } from "@/lib/geo/bearing";
import { ANGLE_DESCRIPTIONS, ANGLE_LABELS } from "@/lib/orders/vocabulary";
import { RETAKE_REASON_MAX } from "@/lib/orders/limits";
import type { DeliveredPhoto, Order, OrderAssignment } from "./types";
import { cycleComparisons } from "./cycle-comparison";
import { CycleCompare } from "./cycle-compare";
import { describeWeather } from "./photo-metadata";
import { checkViews, VERDICT_LABELS, type CheckVerdict } from "./verification-display";
import { DeviceEvidenceNote } from "@/components/submissions/device-evidence-note";
import { authenticitySignals } from "./authenticity-display";
import { photoEvidence } from "./check-evidence";
import { DetectedPhoto, EvidenceRows } from "./photo-evidence";
import { SignalList } from "./signal-list";
import { useReasonedRequest } from "./use-reasoned-request";

const VERDICT_STYLES: Record<CheckVerdict, { box: string; mark: string; icon: string }> = {
  passed: { box: "border-slate-200 bg-white", mark: "text-emerald-800", icon: "✓" },
  failed: { box: "border-red-300 bg-red-50", mark: "text-red-800", icon: "✗" },
  not_evaluated: { box: "border-dashed border-slate-300 bg-slate-50", mark: "text-slate-600", icon: "–" },
};

export function PhotoReview({
  order,
  photos,
  assignments,
  canEdit,
  selectedPhotoId,
  onSelectPhoto,
}: {
  order: Order;
  photos: DeliveredPhoto[];
  assignments: OrderAssignment[];
  canEdit: boolean;
  selectedPhotoId: string | null;
  onSelectPhoto: (photoId: string | null) => void;
}) {
  const comparisons = useMemo(() => (order.recurring ? cycleComparisons(photos, assignments) : new Map<string, never[]>()), [order.recurring, photos, assignments]);
  if (photos.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-8 text-center text-sm text-slate-600">
        No photos delivered yet. A location&apos;s photos appear here once every angle of it has passed verification.
      </p>
    );
  }
  const sentBack = new Set(assignments.filter((a) => a.status === "cancelled" && a.photo_id && a.delivered_at).map((a) => a.photo_id));
  return (
    <div className="flex flex-col gap-6">
      {order.locations
        .map((location) => ({ location, shots: photos.filter((p) => p.location_id === location.location_id) }))
        .filter(({ shots }) => shots.length > 0)
        .map(({ location, shots }) => (
          <section key={location.location_id} aria-labelledby={`photos-${location.location_id}`} className="flex flex-col gap-3" data-testid="photo-location">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 id={`photos-${location.location_id}`} className="text-base font-semibold text-slate-900">
                {location.name} <span className="text-sm font-normal text-slate-600">· {shots.length} photo{shots.length === 1 ? "" : "s"}</span>
              </h3>
              <ZipDownloadButton
                href={`/dashboard-api/orders/${order.id}/photos.zip?location_id=${encodeURIComponent(location.location_id)}`}
                label="Download ZIP"
                accessibleName={`Download the photos of ${location.name} as a ZIP`}
                progressLabel={`Download of ${location.name}'s photos`}
                fallbackName={`${order.id}-${location.location_id}.zip`}
                variant="ghost"
                size="sm"
              />
            </div>
            {(comparisons.get(location.location_id) ?? []).map((comparison) => (
              <CycleCompare key={comparison.angle} comparison={comparison} locationName={location.name} />
            ))}
            <ul className="flex flex-col gap-4">
              {[...shots]
                .sort((a, b) => a.angle.localeCompare(b.angle))
                .map((photo) => (
                  <PhotoCard
                    key={photo.photo_id}
                    orderId={order.id}
                    photo={photo}
                    target={{ ...location.coordinates, name: location.name }}
                    canEdit={canEdit}
                    sentBack={sentBack.has(photo.photo_id)}
                    selected={photo.photo_id === selectedPhotoId}
                    onSelect={() => onSelectPhoto(photo.photo_id === selectedPhotoId ? null : photo.photo_id)}
                  />
                ))}
            </ul>
          </section>
        ))}
    </div>
  );
}

function PhotoCard({
  orderId,
  photo,
  target,
  canEdit,
  sentBack,
  selected,
  onSelect,
}: {
  orderId: string;
  photo: DeliveredPhoto;
  target: { lat: number; lng: number; name: string };
  canEdit: boolean;
  sentBack: boolean;
  selected: boolean;
  onSelect: () => void;
}) {
  const id = useId();
  const { metadata } = photo;
  const gps = metadata.gps;
  const direction = metadata.direction_deg ?? null;
  const checks = checkViews(photo.verification.ai_checks);
  const evidence = photoEvidence(photo.verification.ai_checks);
  const signals = authenticitySignals(photo.verification.ai_checks.authenticity);
  const serverText = useServerText();
  const angleLabel = ANGLE_LABELS[photo.angle];
  return (
    <li
      data-testid="delivered-photo"
      data-photo-id={photo.photo_id}
      aria-labelledby={`${id}-title`}
      className={`flex flex-col gap-3 rounded-lg border bg-white p-4 shadow-sm ${selected ? "border-emerald-600 ring-2 ring-emerald-600/30" : "border-slate-200"}`}
    >
      <div className="flex flex-col gap-3 sm:flex-row">
        <DetectedPhoto src={photo.thumbnail} href={photo.url} alt={`${angleLabel} of ${target.name}, as delivered`} detections={evidence.detections} />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm">
          <h4 id={`${id}-title`} className="font-semibold text-slate-900">
            {angleLabel}
            {sentBack ? <span className="ms-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">Sent back for a retake</span> : null}
          </h4>
          <p className="text-xs text-slate-600">{ANGLE_DESCRIPTIONS[photo.angle]}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            <dt className="text-slate-500">Taken</dt>
            <dd>{metadata.captured_at ? <LocalDateTime iso={metadata.captured_at} /> : "unknown"}</dd>
            <dt className="text-slate-500">Camera</dt>
            <dd data-testid="camera-position">
              {gps ? `${Math.round(distanceM(target, gps))} m ${compassPointName(bearingDeg(target, gps))} of the target` : "no GPS position"}
            </dd>
            <dt className="text-slate-500">Facing</dt>
            <dd>{direction === null ? "no compass direction" : `${Math.round(direction)}° (${compassPointName(direction)})`}</dd>
            <dt className="text-slate-500">Device</dt>
            <dd data-testid="photo-device">{metadata.device ?? "not recorded"}</dd>
            {metadata.device_evidence ? (
              <>
                <dt className="text-slate-500">Evidence</dt>
                <dd>
                  <DeviceEvidenceNote evidence={metadata.device_evidence} />
                </dd>
              </>
            ) : null}
            <EvidenceRows evidence={{ ...evidence, devicePosition: null }} />
            <dt className="text-slate-500">Weather</dt>
            <dd>{describeWeather(metadata)}</dd>
            {metadata.sha256 ? (
              <>
                <dt className="text-slate-500">SHA-256</dt>
                <dd className="truncate font-mono" title={metadata.sha256}>
                  {metadata.sha256.slice(0, 16)}…
                </dd>
              </>
            ) : null}
          </dl>
          <div className="mt-1 flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" aria-pressed={selected} onClick={onSelect}>
              {selected ? "Shown on the map" : "Show camera on the map"}
            </Button>
          </div>
        </div>
      </div>

      <ul aria-label={`Verification of the ${angleLabel.toLowerCase()} photo`} className="flex flex-col gap-1.5" data-testid="photo-checks">
        {checks.map((c) => {
          const style = VERDICT_STYLES[c.verdict];
          return (
            <li key={c.check} data-check={c.check} data-verdict={c.verdict} className={`rounded-md border px-3 py-1.5 text-sm ${style.box}`}>
              <div className="flex flex-wrap items-center justify-between gap-x-3">
                <span className="font-medium text-slate-900">
                  <span aria-hidden className={`me-1.5 ${style.mark}`}>
                    {style.icon}
                  </span>
                  {c.label}
                  <span className={`ms-2 text-xs font-semibold ${style.mark}`}>{VERDICT_LABELS[c.verdict]}</span>
                </span>
                <span className="text-xs tabular-nums text-slate-600">
                  {c.measured ?? ""}
                  {c.threshold ? <span className="text-slate-500">{c.measured ? " · " : ""}{c.threshold}</span> : null}
                  {c.score !== null ? <span className="text-slate-500"> · score {c.score.toFixed(2)}</span> : null}
                </span>
              </div>
              {c.message ? <p className="mt-0.5 text-xs text-slate-600">{serverText(c.coded, c.message)}</p> : null}
              {c.check === "authenticity" && signals.length > 0 ? <SignalList signals={signals} /> : null}
            </li>
          );
        })}
      </ul>

      {!canEdit ? null : sentBack ? (
        <p className="text-sm text-slate-600" data-testid="retake-pending">
          A retake was requested: a new task is open for this location and angle. Its photo is delivered here once it passes verification.
        </p>
      ) : (
        <RetakeForm orderId={orderId} photoId={photo.photo_id} label={`${angleLabel} of ${target.name}`} />
      )}
    </li>
  );
}

function RetakeForm({ orderId, photoId, label }: { orderId: string; photoId: string; label: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const { reason, setReason, pending, error, send } = useReasonedRequest({ reader: "zoomer" });

  if (done) {
    return (
      <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="retake-requested">
        Retake requested: a new task is open for this location and angle, with your reason as its instruction. The new photo is delivered when it passes verification.
      </p>
    );
  }
  if (!open) {
    return (
      <div>
        <Button variant="secondary" size="sm" onClick={() => setOpen(true)} aria-label={`Request a retake of the ${label}`}>
          Request a retake
        </Button>
      </div>
    );
  }
  return (
    <form
      aria-label={`Request a retake of the ${label}`}
      className="flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 p-3"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await send((trimmed) => requestPhotoRetake({ orderId, photoId, reason: trimmed }))) setDone(true);
      }}
    >
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
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        className={inputClasses}
        placeholder="e.g. A van hides the entrance; wait until the street is clear."
      />
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        The zoomer reads this as the task&apos;s instruction. Retakes you ask for are not charged.
      </p>
      {error ? (
        <div id={`${id}-error`}>
          <FormError>{error}</FormError>
        </div>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? "Sending…" : "Send back for a retake"}
        </Button>
        <Button variant="ghost" size="sm" disabled={pending} onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
