"use client";
// The checks on the phone before sending (lib/field/pre-send-checks.ts): pass / fail with the
// instruction the server would give, while the zoomer can still fix it, in the zoomer's language
// (each check's codes, else its English). Sending stays allowed.
import { useTranslations } from "next-intl";
import type { PreSendCheck } from "@/lib/field/pre-send-checks";
import { useInstructionLines, useServerText } from "@/components/ui/use-server-text";

const MARKS: Record<PreSendCheck["status"], { mark: string; tone: string }> = {
  passed: { mark: "✓", tone: "bg-emerald-100 text-emerald-800" },
  failed: { mark: "✗", tone: "bg-red-100 text-red-800" },
  not_evaluated: { mark: "–", tone: "bg-slate-100 text-slate-600" },
};

/** The sentence a check shows: what to do for a failed one, else what was found (and, from codes, whose position it was). */
function useCheckSentence(): (c: PreSendCheck) => string {
  const serverText = useServerText();
  const lines = useInstructionLines();
  return (c) => {
    if (c.status === "failed" && c.instruction) return lines(c.coded.instruction, [c.instruction]).join(" ");
    const said = serverText(c.coded.message, c.message);
    // The English message already ends with the note; a coded one adds it in the reader's words.
    return said !== c.message && c.coded.note ? `${said} ${serverText(c.coded.note, "")}` : said;
  };
}

export function PreSendChecks({ checks, photoName }: { checks: PreSendCheck[]; photoName?: string }) {
  const t = useTranslations("field.preSend");
  const sentence = useCheckSentence();
  if (checks.length === 0) return null;
  const failed = checks.filter((c) => c.status === "failed").length;
  return (
    <section
      aria-label={photoName ? t("labelNamed", { name: photoName }) : t("label")}
      className="flex min-w-0 flex-col gap-1"
      data-testid="pre-send-checks"
      data-failed={failed}
    >
      <h2 className="text-sm font-semibold text-slate-700">
        {photoName ? (
          <>
            {t("headingShort")}
            <span className="break-all font-normal"> · {photoName}</span>
          </>
        ) : (
          t("heading")
        )}
      </h2>
      <ul className="flex flex-col divide-y divide-slate-200 rounded-md border border-slate-200">
        {checks.map((c) => (
          <li key={c.name} className="flex gap-2 p-2 text-sm" data-check={c.name} data-outcome={c.status}>
            <span aria-hidden className={`mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${MARKS[c.status].tone}`}>
              {MARKS[c.status].mark}
            </span>
            <span className="flex min-w-0 flex-col">
              <span>
                <span className="font-semibold">{t(c.name)}</span> · {t(c.status)}
              </span>
              <span className="break-words text-slate-700">{sentence(c)}</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-500">{failed > 0 ? t("maySend") : t("maySendClean")}</p>
    </section>
  );
}
