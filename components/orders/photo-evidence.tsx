"use client";
// A photo's evidence on the review page: the photo with what the vision model detected outlined
// on it (and a larger view of it), and the people counted, the objects seen and the phone's own position in plain words.
import { useTranslations } from "next-intl";
import { distanceM } from "@/lib/geo/bearing";
import { useRef, useState } from "react";
import { describeDetections, type Detection, type PhotoEvidence } from "./check-evidence";
import { DetectionOverlay } from "./detection-overlay";
import { DetectionViewer } from "./detection-viewer";
import { useOrderWords } from "./use-order-words";

/**
 * The photo with each detection's box drawn over it (labels placed by ./detection-labels.ts). The
 * photo is a button that opens the larger view (./detection-viewer.tsx), where the boxes can be
 * hidden and the original opened.
 */
export function DetectedPhoto({ src, href, alt, detections }: { src: string; href: string; alt: string; detections: Detection[] }) {
  const t = useTranslations("orders.evidence");
  const words = useOrderWords();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const cue = useRef<HTMLSpanElement>(null);
  return (
    <figure className="w-full shrink-0 self-start sm:w-64" data-testid="detected-photo">
      <div className="relative">
        <button
          ref={opener}
          type="button"
          aria-haspopup="dialog"
          onClick={() => setOpen(true)}
          className="group block w-full cursor-zoom-in rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600"
        >
          {/* eslint-disable-next-line @next/next/no-img-element -- signed CDN URLs from our own origin, already sized */}
          <img src={src} alt={alt} className="block h-auto w-full rounded-md bg-slate-100" />
          <span className="sr-only"> {t("openLarger")}</span>
          {/* Physical corner, like the boxes: the photo is not mirrored in a right-to-left page. */}
          <span
            ref={cue}
            aria-hidden
            data-testid="photo-enlarge"
            className="absolute right-1.5 bottom-1.5 z-10 inline-flex items-center gap-1 rounded bg-slate-900/80 px-1.5 py-0.5 text-[11px] font-medium text-white group-hover:bg-slate-900"
          >
            <svg viewBox="0 0 16 16" className="size-3" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
              <path d="M10 2h4v4M6 14H2v-4M14 2 9 7M2 14l5-5" />
            </svg>
            {t("larger")}
          </span>
        </button>
        <DetectionOverlay detections={detections} controls={[cue]} />
      </div>
      {detections.length > 0 ? (
        <figcaption className="mt-1 text-xs text-slate-600">{t("outlined", { what: describeDetections(detections, words) ?? "" })}</figcaption>
      ) : null}
      <DetectionViewer
        open={open}
        onClose={() => setOpen(false)}
        returnFocusTo={opener}
        src={href}
        fallbackSrc={src}
        originalHref={href}
        title={alt}
        detections={detections}
      />
    </figure>
  );
}

/** Rows for the photo's facts list: people counted, objects seen, the phone's own position against the photo's GPS. */
export function EvidenceRows({ evidence }: { evidence: PhotoEvidence }) {
  const t = useTranslations("orders.evidence");
  const words = useOrderWords();
  const { distance, has } = words;
  const seen = describeDetections(evidence.detections, words);
  const { exifPosition, devicePosition, crowdLevel } = evidence;
  const level = crowdLevel ? (has(`evidence.crowd.${crowdLevel}`) ? t(`crowd.${crowdLevel}`) : crowdLevel) : null;
  return (
    <>
      {evidence.peopleCount !== null ? (
        <>
          <dt className="text-slate-500">{t("people")}</dt>
          <dd data-testid="people-count">
            {level ? t("peopleCountedLevel", { count: evidence.peopleCount, level }) : t("peopleCounted", { count: evidence.peopleCount })}
          </dd>
        </>
      ) : null}
      {seen ? (
        <>
          <dt className="text-slate-500">{t("seen")}</dt>
          <dd>{t("seenOutlined", { what: seen })}</dd>
        </>
      ) : null}
      {devicePosition ? (
        <>
          <dt className="text-slate-500">{t("phone")}</dt>
          <dd data-testid="phone-position">
            {exifPosition ? t("phoneFrom", { distance: distance(distanceM(devicePosition, exifPosition)) }) : t("phoneNoGps")}
            {devicePosition.accuracy_m !== null ? ` ${t("phoneAccuracy", { distance: distance(devicePosition.accuracy_m) })}` : ""}
          </dd>
        </>
      ) : null}
    </>
  );
}
