// How the mission pages word one QA check: its label, and the measured figure beside what it was
// compared with, each with its unit and meaning ("12.3 m outside the area" · "31.4 m allowed"),
// for passed checks as for failed ones, in the reader's language: the words are the `dashboard`
// catalogue's (dashboard.submissions.qa), numbers and dates the reader's locale's, a position's
// hemispheres whole ICU sentences ("45,46420° N, 9,18990° O" in German, "北緯45.46420°" in
// Japanese). The API keeps the raw figures (lib/service/qa/checks.ts).
import { formatDateTime } from "@/components/ui/format-time";
import type { QaCheck } from "./types";

/** A translator rooted at dashboard.submissions.qa: key and values → text. */
export type QaTranslate = (key: string, values?: Record<string, string | number>) => string;

export interface QaWords {
  t: QaTranslate;
  /** The locale numbers and dates are written in (the dashboard's: English reads en-GB). */
  locale: string;
}

/** The check's name ("Decodable image", "Bild lesbar"). */
export function qaCheckLabel(check: QaCheck["check"], { t }: QaWords): string {
  return t(`checks.${check}`);
}

export interface QaFigure {
  /** What was measured, in words and units; null when nothing was. */
  measured: string | null;
  /** What it was held against; null when the check has no threshold. */
  threshold: string | null;
}

const num = (value: number, locale: string) =>
  new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(Number.isInteger(value) ? value : Math.round(value * 10) / 10);
const degrees = (value: number, locale: string) =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: 5, maximumFractionDigits: 5 }).format(Math.abs(value));

/** "45.46420° N, 9.18990° E" from the recorded "lat,lng", hemispheres in the reader's words. */
function position(value: string, { t, locale }: QaWords): string {
  const [lat, lng] = value.split(",").map(Number);
  if (lat === undefined || lng === undefined || !Number.isFinite(lat) || !Number.isFinite(lng)) return value;
  const hemisphere = (point: "N" | "S" | "E" | "W") => t(`figures.hemisphere.${point}`);
  return t("figures.position", {
    lat: degrees(lat, locale),
    ns: hemisphere(lat >= 0 ? "N" : "S"),
    lng: degrees(lng, locale),
    ew: hemisphere(lng >= 0 ? "E" : "W"),
  });
}

function when(value: string, locale: string): string {
  return Number.isNaN(Date.parse(value)) ? value : formatDateTime(value, locale);
}

/** The check's sentence as its code and figures (checks recorded before codes have none: their English then). */
export function qaSentence(c: QaCheck): { code: string; params: Record<string, string | number> } | null {
  return c.code ? { code: c.code, params: c.params ?? {} } : null;
}

/** The check's figures in words. */
export function qaFigure(c: QaCheck, words: QaWords): QaFigure {
  const { t, locale } = words;
  const { value, threshold } = c;
  switch (c.check) {
    case "decodable":
      return { measured: t(value === true ? "figures.decodes" : "figures.notDecodable"), threshold: null };
    case "exif_present":
      return { measured: t(value === true ? "figures.metadataFound" : "figures.noMetadata"), threshold: null };
    case "gps_present":
      return { measured: typeof value === "string" ? position(value, words) : t("figures.noPosition"), threshold: null };
    case "inside_bounds":
      return {
        measured:
          typeof value !== "number"
            ? t("figures.positionUnknown")
            : value <= 0
              ? t("figures.insideArea")
              : t("figures.outsideArea", { distance: num(value, locale) }),
        threshold: typeof threshold === "number" ? t("figures.allowedMetres", { distance: num(threshold, locale) }) : null,
      };
    case "capture_time": {
      const measured = typeof value === "string" ? t("figures.taken", { when: when(value, locale) }) : t("figures.timeNotRecorded");
      if (typeof threshold !== "string" || typeof value !== "string") return { measured, threshold: null };
      return {
        measured,
        threshold: t(Date.parse(value) < Date.parse(threshold) ? "figures.notBefore" : "figures.notAfter", { when: when(threshold, locale) }),
      };
    }
    case "resolution":
      return {
        measured: typeof value === "number" ? t("figures.shorterSide", { px: num(value, locale) }) : t("figures.notMeasured"),
        threshold: typeof threshold === "number" ? t("figures.atLeastPx", { px: num(threshold, locale) }) : null,
      };
    case "sharpness":
      return {
        measured: typeof value === "number" ? t("figures.sharpness", { value: num(value, locale) }) : t("figures.notMeasured"),
        threshold: typeof threshold === "number" ? t("figures.atLeast", { value: num(threshold, locale) }) : null,
      };
    case "exposure":
      return {
        measured: typeof value === "number" ? t("figures.brightness", { value: num(value, locale) }) : t("figures.notMeasured"),
        threshold: typeof threshold === "string" ? t("figures.rangeAllowed", { range: threshold }) : null,
      };
    case "duplicate":
      return {
        measured: typeof value === "string" ? t("figures.repeats", { image: value }) : t("figures.noRepeat"),
        threshold: typeof threshold === "number" ? t("figures.repeatThreshold", { bits: num(threshold, locale) }) : null,
      };
  }
}
