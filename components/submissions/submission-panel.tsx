"use client";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { ErrorState, Skeleton } from "@/components/ui/states";
import { useInstructionLines } from "@/components/ui/use-server-text";
import { submissionReasonCodes } from "@/lib/service/qa/reason-codes";
import { DeviceEvidenceNote } from "./device-evidence-note";
import { ExifTable } from "./exif-table";
import { PhotoViewer } from "./photo-viewer";
import { QaChecks } from "./qa-checks";
import { submissionQuery } from "./queries";

/** The selected submission: its photos, the chosen photo's metadata and QA verdict. */
export function SubmissionPanel({ submissionId, onClose }: { submissionId: string; onClose: () => void }) {
  const t = useTranslations("dashboard.submissions");
  const formatLocale = useFormatLocale();
  const dateTime = useMemo(() => new Intl.DateTimeFormat(formatLocale, { dateStyle: "medium", timeStyle: "short" }), [formatLocale]);
  const { data, error, isPending } = useQuery(submissionQuery(submissionId));
  const [photo, setPhoto] = useState(0);
  const [viewerIndex, setViewerIndex] = useState<number | null>(null);
  const lines = useInstructionLines();
  const image = data?.images[Math.min(photo, Math.max(0, (data?.images.length ?? 1) - 1))];

  return (
    <section aria-label={t("panelLabel")} className="flex h-full flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg">
      <header className="flex items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div className="min-w-0">
          <h2 className="text-sm font-semibold text-slate-900">
            {data?.captured_at ? t("takenAt", { when: dateTime.format(new Date(data.captured_at)) }) : t("title")}
          </h2>
          <div className="mt-0.5 flex items-center gap-2">
            {/* Selectable as well as copyable: integrators quote this id to support and in API calls. */}
            <code className="truncate select-all text-xs text-slate-700" data-testid="submission-id">
              {submissionId}
            </code>
            <span className="shrink-0 whitespace-nowrap">
              <CopyButton value={submissionId} label={t("copyId")} />
            </span>
          </div>
          {data ? (
            <p className="mt-0.5 text-xs text-slate-600">
              {t("receivedAt", { when: dateTime.format(new Date(data.created_at)) })} · {t("photos", { count: data.image_count })}
              {data.angle ? ` · ${t(`angle.${data.angle}`)}` : ""}
            </p>
          ) : null}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {data ? <StatusBadge status={data.status} /> : null}
          <Button variant="ghost" size="sm" aria-label={t("close")} onClick={onClose}>
            ✕
          </Button>
        </div>
      </header>
      <div className="flex-1 overflow-y-auto px-4 py-3">
        {isPending ? (
          <div role="status" aria-label={t("loadingOne")} className="flex flex-col gap-3">
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-40 w-full" />
          </div>
        ) : error || !data ? (
          <ErrorState title={t("loadFailed")}>{error?.message}</ErrorState>
        ) : (
          <div className="flex flex-col gap-5">
            {data.reasons.length > 0 ? (
              // Why QA rejected it, read back from the photos' coded checks in the reader's language (the API's English when a code is unknown).
              <div className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
                <p className="font-semibold">{t("rejectedBecause")}</p>
                <ul className="mt-1 list-disc ps-5">
                  {lines(submissionReasonCodes(data.status, data.images), data.reasons).map((r, i) => (
                    <li key={`${i}:${r}`}>{r}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            {data.note ? <p className="text-sm text-slate-700">“{data.note}”</p> : null}
            <div className="flex flex-wrap gap-2" role="group" aria-label={t("photosGroup")}>
              {data.images.map((img, i) => (
                <button
                  key={img.id}
                  type="button"
                  aria-pressed={i === photo}
                  aria-label={img.original_name ? t("photoButtonNamed", { number: i + 1, name: img.original_name }) : t("photoButton", { number: i + 1 })}
                  onClick={() => setPhoto(i)}
                  onDoubleClick={() => setViewerIndex(i)}
                  className={`h-20 w-24 overflow-hidden rounded-md border-2 bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-600 ${i === photo ? "border-emerald-600" : "border-transparent"}`}
                >
                  {img.thumbnail_url ? (
                    // eslint-disable-next-line @next/next/no-img-element -- signed CDN thumbnail
                    <img src={img.thumbnail_url} alt="" className="h-full w-full object-cover" />
                  ) : (
                    <span className="text-xs text-slate-500">{t("processing")}</span>
                  )}
                </button>
              ))}
            </div>
            {image ? (
              <>
                <div className="flex flex-wrap gap-2">
                  <Button size="sm" onClick={() => setViewerIndex(Math.min(photo, data.images.length - 1))}>
                    {t("viewFull")}
                  </Button>
                  <a
                    href={image.url}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex h-8 items-center rounded-md px-3 text-sm font-medium text-emerald-800 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-600"
                  >
                    {t("original")}
                  </a>
                </div>
                <section aria-labelledby="meta-heading" className="flex flex-col gap-2">
                  <h3 id="meta-heading" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
                    {t("metadata")}
                  </h3>
                  <ExifTable image={image} />
                  <DeviceEvidenceNote evidence={data.device_evidence} />
                </section>
                <section aria-labelledby="qa-heading" className="flex flex-col gap-2">
                  <h3 id="qa-heading" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
                    {t("quality")}
                  </h3>
                  <QaChecks checks={image.qa} />
                </section>
              </>
            ) : null}
            <PhotoViewer images={data.images} index={viewerIndex} onIndexChange={setViewerIndex} onClose={() => setViewerIndex(null)} />
          </div>
        )}
      </div>
    </section>
  );
}
