"use client";
// Review of an order's delivered photos: a gallery per location and angle; beside each photo its
// verification — every check passed, failed or not evaluated (never shown as passed without
// evidence) with the measured value and the threshold — where the camera stood and which way it
// faced (also drawn on the map), its signed evidence to download, and, for editors, "request a
// retake" with a reason. Each location downloads as a ZIP, and a recurring order's cycles compare
// side by side.
import { useTranslations } from "next-intl";
import { useId, useMemo, useState } from "react";
import { requestPhotoRetake } from "@/lib/dashboard/order-actions";
import { Button } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import { FormError } from "@/components/ui/states";
import { useServerText } from "@/components/ui/use-server-text";
import { ZipDownloadButton } from "@/components/ui/zip-download-button";
import { bearingDeg, distanceM } from "@/lib/geo/bearing";
import { RETAKE_REASON_MAX } from "@/lib/orders/limits";
import type { DeliveredPhoto, Order, OrderAssignment } from "./types";
import { cycleComparisons } from "./cycle-comparison";
import { CycleCompare } from "./cycle-compare";
import { describeWeather } from "./photo-metadata";
import { checkViews, type CheckVerdict, type Figure } from "./verification-display";
import { DeviceEvidenceNote } from "@/components/submissions/device-evidence-note";
import { authenticitySignals } from "./authenticity-display";
import { photoEvidence } from "./check-evidence";
import { DetectedPhoto, EvidenceRows } from "./photo-evidence";
import { EvidenceDownload } from "./evidence-download";
import { SignalList } from "./signal-list";
import { OrderTime } from "./order-time";
import { compassKey } from "./translate";
import { useReasonedRequest } from "./use-reasoned-request";
import { useOrderWords } from "./use-order-words";

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
  deliveredLocations,
}: {
  order: Order;
  photos: DeliveredPhoto[];
  assignments: OrderAssignment[];
  canEdit: boolean;
  selectedPhotoId: string | null;
  onSelectPhoto: (photoId: string | null) => void;
  /** Locations delivered so far: with none of their photos here, the photos are gone, not yet to come. */
  deliveredLocations: number;
}) {
  const t = useTranslations("orders.photos");
  const comparisons = useMemo(
    () => (order.recurring ? cycleComparisons(photos, assignments) : new Map<string, never[]>()),
    [order.recurring, photos, assignments],
  );
  if (photos.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-8 text-center text-sm text-slate-600" data-testid="photos-empty">
        {deliveredLocations > 0 ? t("noneKept") : t("none")}
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
                {location.name} <span className="text-sm font-normal text-slate-600">· {t("count", { count: shots.length })}</span>
              </h3>
              <ZipDownloadButton
                href={`/dashboard-api/orders/${order.id}/photos.zip?location_id=${encodeURIComponent(location.location_id)}`}
                label={t("downloadZip")}
                accessibleName={t("downloadLocation", { name: location.name })}
                progressLabel={t("downloadLocationProgress", { name: location.name })}
                fallbackName={`${order.id}-${location.location_id}.zip`}
                variant="ghost"
                size="sm"
              />
            </div>
            {(comparisons.get(location.location_id) ?? []).map((comparison) => (
              <CycleCompare key={comparison.angle} comparison={comparison} locationName={location.name} timeZone={location.time_zone} />
            ))}
            <ul className="flex flex-col gap-4">
              {[...shots]
                .sort((a, b) => a.angle.localeCompare(b.angle))
                .map((photo) => (
                  <PhotoCard
                    key={photo.photo_id}
                    orderId={order.id}
                    photo={photo}
                    target={{ ...location.coordinates, name: location.name, timeZone: location.time_zone }}
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
  target: { lat: number; lng: number; name: string; timeZone: string };
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
  const words = useOrderWords();
  const { distance, has } = words;
  const t = useTranslations("orders");
  const vocabulary = useTranslations("vocabulary");
  const angleLabel = vocabulary(`angle.${photo.angle}`);
  return (
    <li
      data-testid="delivered-photo"
      data-photo-id={photo.photo_id}
      aria-labelledby={`${id}-title`}
      className={`flex flex-col gap-3 rounded-lg border bg-white p-4 shadow-sm ${selected ? "border-emerald-600 ring-2 ring-emerald-600/30" : "border-slate-200"}`}
    >
      <div className="flex flex-col gap-3 sm:flex-row">
        <DetectedPhoto
          src={photo.thumbnail}
          href={photo.url}
          alt={t("photos.alt", { angle: angleLabel, name: target.name })}
          detections={evidence.detections}
        />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm">
          <h4 id={`${id}-title`} className="font-semibold text-slate-900">
            {angleLabel}
            {sentBack ? <span className="ms-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">{t("photos.sentBack")}</span> : null}
          </h4>
          <p className="text-xs text-slate-600">{vocabulary(`angleHint.${photo.angle}`)}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            <dt className="text-slate-500">{t("photos.taken")}</dt>
            {/* When it was taken is about the place: its own clock and zone. */}
            <dd>{metadata.captured_at ? <OrderTime iso={metadata.captured_at} timeZone={target.timeZone} /> : t("photos.unknown")}</dd>
            <dt className="text-slate-500">{t("photos.camera")}</dt>
            <dd data-testid="camera-position">
              {gps
                ? t("photos.cameraAt", { distance: distance(distanceM(target, gps)), direction: t(`compass.${compassKey(bearingDeg(target, gps))}`) })
                : t("photos.noGps")}
            </dd>
            <dt className="text-slate-500">{t("photos.facing")}</dt>
            <dd>
              {direction === null
                ? t("photos.noCompass")
                : t("photos.facingDeg", { degrees: Math.round(direction), direction: t(`compass.${compassKey(direction)}`) })}
            </dd>
            <dt className="text-slate-500">{t("photos.device")}</dt>
            <dd data-testid="photo-device">{metadata.device ?? t("photos.notRecorded")}</dd>
            {metadata.device_evidence ? (
              <>
                <dt className="text-slate-500">{t("photos.evidence")}</dt>
                <dd>
                  <DeviceEvidenceNote evidence={metadata.device_evidence} />
                </dd>
              </>
            ) : null}
            <EvidenceRows evidence={{ ...evidence, devicePosition: null }} />
            <dt className="text-slate-500">{t("photos.weather")}</dt>
            <dd>{describeWeather(metadata, words)}</dd>
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
              {selected ? t("photos.shownOnMap") : t("photos.showCamera")}
            </Button>
            <EvidenceDownload
              photoId={photo.photo_id}
              evidence={photo.evidence}
              c2paUrl={photo.provenance?.c2pa_url ?? null}
              what={t("photos.angleOf", { angle: angleLabel, name: target.name })}
            />
          </div>
        </div>
      </div>

      <ul aria-label={t("photos.verificationOf", { angle: angleLabel })} className="flex flex-col gap-1.5" data-testid="photo-checks">
        {checks.map((c) => {
          const style = VERDICT_STYLES[c.verdict];
          // The figures in the reader's words where the page can word them, else the API's text (a check's own string value).
          const worded = (f: Figure | null, text: string | null) =>
            f ? t(`figure.${f.key}`, f.values) : c.figures.measured || c.figures.threshold ? null : text;
          const measured = worded(c.figures.measured, c.measured);
          const threshold = worded(c.figures.threshold, c.threshold);
          return (
            <li key={c.check} data-check={c.check} data-verdict={c.verdict} className={`rounded-md border px-3 py-1.5 text-sm ${style.box}`}>
              <div className="flex flex-wrap items-center justify-between gap-x-3">
                <span className="font-medium text-slate-900">
                  <span aria-hidden className={`me-1.5 ${style.mark}`}>
                    {style.icon}
                  </span>
                  {has(`checks.${c.check}`) ? t(`checks.${c.check}`) : c.label}
                  <span className={`ms-2 text-xs font-semibold ${style.mark}`}>{t(`verdict.${c.verdict}`)}</span>
                </span>
                <span className="text-xs tabular-nums text-slate-600">
                  {measured ?? ""}
                  {threshold ? (
                    <span className="text-slate-500">
                      {measured ? " · " : ""}
                      {threshold}
                    </span>
                  ) : null}
                  {c.score !== null ? (
                    <span className="text-slate-500">
                      {" "}
                      ·{" "}
                      {t("photos.score", {
                        score: new Intl.NumberFormat(words.locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(c.score),
                      })}
                    </span>
                  ) : null}
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
          {t("photos.retakePending")}
        </p>
      ) : (
        <RetakeForm orderId={orderId} photoId={photo.photo_id} label={t("photos.angleOf", { angle: angleLabel, name: target.name })} />
      )}
    </li>
  );
}

function RetakeForm({ orderId, photoId, label }: { orderId: string; photoId: string; label: string }) {
  const id = useId();
  const t = useTranslations("orders.photos");
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const { reason, setReason, pending, error, send } = useReasonedRequest({ reader: "zoomer" });

  if (done) {
    return (
      <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="retake-requested">
        {t("retakeRequested")}
      </p>
    );
  }
  if (!open) {
    return (
      <div>
        <Button variant="secondary" size="sm" onClick={() => setOpen(true)} aria-label={t("requestRetakeOf", { what: label })}>
          {t("requestRetake")}
        </Button>
      </div>
    );
  }
  return (
    <form
      aria-label={t("requestRetakeOf", { what: label })}
      className="flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 p-3"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await send((trimmed) => requestPhotoRetake({ orderId, photoId, reason: trimmed }))) setDone(true);
      }}
    >
      <label htmlFor={`${id}-reason`} className="text-sm font-medium text-slate-800">
        {t("reasonLabel")}
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
        placeholder={t("retakePlaceholder")}
      />
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {t("retakeHint")}
      </p>
      {error ? (
        <div id={`${id}-error`}>
          <FormError>{error}</FormError>
        </div>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? t("sending") : t("sendBack")}
        </Button>
        <Button variant="ghost" size="sm" disabled={pending} onClick={() => setOpen(false)}>
          {t("cancel")}
        </Button>
      </div>
    </form>
  );
}
