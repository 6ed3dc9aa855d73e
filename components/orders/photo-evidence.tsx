"use client";
// A photo's evidence on the review page: the photo with what the vision model detected outlined
// on it, and the people counted, the objects seen and the phone's own position in plain words.
import { useTranslations } from "next-intl";
import { distanceM } from "@/lib/geo/bearing";
import { describeDetections, detectionName, type Detection, type PhotoEvidence } from "./check-evidence";
import { useOrderWords } from "./use-order-words";

// Dark enough for the white label text on them (WCAG AA, 4.5:1): amber-700 for people, red-700 for the rest.
const BOX_COLOURS: Record<string, string> = { person: "#b45309" };
const boxColour = (label: string) => BOX_COLOURS[label] ?? "#b91c1c";

/** The photo (linked to its original) with each detection's box drawn over it, at the photo's own proportions. */
export function DetectedPhoto({ src, href, alt, detections }: { src: string; href: string; alt: string; detections: Detection[] }) {
  const t = useTranslations("orders.evidence");
  const words = useOrderWords();
  return (
    <figure className="relative w-full shrink-0 self-start sm:w-64" data-testid="detected-photo">
      <a href={href} target="_blank" rel="noopener noreferrer" className="block focus-visible:outline-2 focus-visible:outline-emerald-600">
        {/* eslint-disable-next-line @next/next/no-img-element -- signed CDN URLs from our own origin, already sized */}
        <img src={src} alt={alt} className="block h-auto w-full rounded-md bg-slate-100" />
        <span className="sr-only"> {t("opensOriginal")}</span>
      </a>
      {detections.map((d, i) => (
        <div
          key={`${d.label}-${i}`}
          aria-hidden
          data-testid="detection-box"
          className="pointer-events-none absolute rounded-sm border-2"
          style={{ left: `${d.box[0] * 100}%`, top: `${d.box[1] * 100}%`, width: `${d.box[2] * 100}%`, height: `${d.box[3] * 100}%`, borderColor: boxColour(d.label) }}
        >
          <span className="absolute start-0 top-0 -translate-y-full whitespace-nowrap rounded-t-sm px-1 text-[10px] font-semibold leading-4 text-white" style={{ backgroundColor: boxColour(d.label) }}>
            {detectionName(d.label, words)} {Math.round(d.score * 100)}%
          </span>
        </div>
      ))}
      {detections.length > 0 ? <figcaption className="mt-1 text-xs text-slate-600">{t("outlined", { what: describeDetections(detections, words) ?? "" })}</figcaption> : null}
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
          <dd data-testid="people-count">{level ? t("peopleCountedLevel", { count: evidence.peopleCount, level }) : t("peopleCounted", { count: evidence.peopleCount })}</dd>
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
