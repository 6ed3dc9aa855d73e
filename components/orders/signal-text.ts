// An authenticity signal's sentence in the reader's language, from its code and figures
// (lib/service/verification/authenticity.ts). English readers get the service's own sentence,
// which is the English wording of the same code.
import { catalogueOf } from "@/lib/i18n/locales";
import { formatDistance, type Words } from "./translate";

export interface CodedSignal {
  code: string;
  params: Record<string, string | number>;
}

type SignalWords = Words & { has: (key: string) => boolean };

/** Hours as the reader says a span of time: days from two days on, hours from one, else minutes. */
export function durationWords(hours: number, { t, locale }: Words): string {
  const h = Math.abs(hours);
  if (h * 60 < 1) return t("signalText.underMinute");
  const [value, unit] = h >= 48 ? [Math.round(h / 24), "day"] : h >= 1 ? [Math.round(h * 10) / 10, "hour"] : [Math.round(h * 60), "minute"];
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long", maximumFractionDigits: 1 }).format(value);
}

const num = (v: string | number | undefined) => (typeof v === "number" ? v : Number(v ?? 0));

export function signalText(coded: CodedSignal | null, message: string, words: SignalWords): string {
  // English (not the pseudo-locale, which reads through the catalogue so hard-coded text shows) is the service's sentence.
  if (!coded || catalogueOf(words.locale) === "en" || !words.has(`signalText.${coded.code}`)) return message;
  const { code, params } = coded;
  const values: Record<string, string | number> = {};
  if (code.startsWith("device_position.") && "distance_m" in params) {
    values.distance = formatDistance(num(params.distance_m), words.locale);
    values.limit = formatDistance(num(params.limit_m), words.locale);
  }
  if (code.startsWith("capture_time.") && "hours" in params) values.duration = durationWords(num(params.hours), words);
  if (code === "seen_elsewhere.seen") Object.assign(values, { same: String(params.same ?? "no"), near: String(params.near ?? "no") });
  if (code === "edit_traces.found") {
    const traces = String(params.traces ?? "")
      .split(",")
      .filter((trace) => words.has(`signalText.trace.${trace}`))
      .map((trace) =>
        words.t(`signalText.trace.${trace}`, {
          editor: `\u2068${String(params.editor ?? "")}\u2069`,
          duration: durationWords(num(trace === "gps_clock" ? params.gps_h : params.modified_h), words),
        }),
      );
    values.traces = new Intl.ListFormat(words.locale, { type: "conjunction" }).format(traces);
  }
  return words.t(`signalText.${code}`, values);
}
