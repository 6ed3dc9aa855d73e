"use client";
// Step 5 of the order wizard: review and pay. The order interface's quote (a line per location,
// the recurring discount, the plan's photos left this month, the total), what each step chose,
// and one button that places the order and pays it with the card on file. Whatever the order
// interface refuses is listed here and shown again at the step and field it concerns.
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { placeOrderFromDraft } from "@/lib/dashboard/order-actions";
import { newRequestKey } from "@/lib/ids/request-key";
import { Button } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { formatMoney } from "../order-progress";
import type { Feasibility, Quote, QuotePreview } from "../types";
import { stepHref, stepOfPointer, stepProblems, WIZARD_STEPS, type FieldErrors, type WizardStep } from "../wizard-steps";
import { localDate } from "../schedule-words";
import { useScheduleDescription } from "../use-schedule-description";
import { DeliveryEstimates } from "./delivery-estimates";
import { useDraft, type InitialDraft } from "./draft-store";
import { isolate, usePointerWords, useProblemWords } from "./wizard-words";
import { WizardFrame } from "./wizard-frame";

export type ServerQuote = { ok: true; quote: QuotePreview } | { ok: false; error: string; fieldErrors: FieldErrors };

export function ReviewStep({ initial, serverQuote, feasibility }: { initial: InitialDraft; serverQuote: ServerQuote; feasibility: Feasibility | null }) {
  const { draft, saver } = useDraft(initial, "review");
  const locale = useFormatLocale();
  const t = useTranslations("wizard.review");
  const steps = useTranslations("dashboard.wizard.step");
  const words = useTranslations("vocabulary");
  const describe = useScheduleDescription();
  const wordProblems = useProblemWords();
  const id = useId();
  const router = useRouter();
  const placing = useRef(false);
  // One key per attempt to place: a double click or a retried submit sends the same one.
  const attempt = useRef<string | null>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<{ message: string; orderId?: string; stale?: boolean } | null>(null);
  const summary = useRef<HTMLDivElement>(null);

  // What the quote refused belongs to the steps too (their badges and fields).
  useEffect(() => {
    if (!serverQuote.ok) saver.setApiErrors(serverQuote.fieldErrors);
  }, [serverQuote, saver]);

  const local = wordProblems(stepProblems(draft.body, "review"));
  const problems: FieldErrors = { ...local, ...draft.apiErrors };
  // Only what is surely wrong blocks the button; a refusal from the last attempt may not recur.
  const blocking = Object.keys(local).length > 0 || !serverQuote.ok;
  const quote = serverQuote.ok ? serverQuote.quote : null;

  async function place() {
    if (placing.current) return;
    placing.current = true;
    setPending(true);
    setFailure(null);
    try {
      if (!(await saver.flush())) {
        setFailure({ message: t("saveFirst") });
        return;
      }
      const result = await placeOrderFromDraft({ draftId: draft.id, version: saver.get().version, requestKey: (attempt.current ??= newRequestKey()) });
      if (result.ok) {
        router.push(`/orders/${result.data.orderId}?placed=1`);
        return;
      }
      // The next click is a new attempt (after a declined card, say), not a replay of this one.
      attempt.current = null;
      setFailure({ message: result.error, orderId: "orderId" in result ? result.orderId : undefined, stale: result.code === "draft_changed" });
      if ("fieldErrors" in result && result.fieldErrors) saver.setApiErrors(result.fieldErrors);
      summary.current?.focus();
    } finally {
      placing.current = false;
      setPending(false);
    }
  }

  const body = draft.body;
  const locations = body.locations ?? [];
  const where = usePointerWords(locations);
  const byStep = new Map<WizardStep, [string, string[]][]>();
  for (const [pointer, messages] of Object.entries(problems)) {
    const step = stepOfPointer(pointer);
    byStep.set(step, [...(byStep.get(step) ?? []), [pointer, messages]]);
  }

  return (
    <WizardFrame step="review" draft={draft} saver={saver}>
      <div ref={summary} tabIndex={-1} className="flex flex-col gap-3 focus:outline-none">
        {failure ? (
          <div role="alert" className="flex flex-col gap-1 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900" data-testid="place-error">
            <p className="font-semibold">{failure.orderId ? t("notPlacedPaid") : t("notPlaced")}</p>
            <p>{failure.message}</p>
            {failure.orderId ? (
              <Link href={`/orders/${failure.orderId}`} className="font-medium underline">
                {t("openOrder")}
              </Link>
            ) : null}
            {failure.stale ? (
              <Button variant="secondary" size="sm" className="self-start" onClick={() => router.refresh()}>
                {t("reload")}
              </Button>
            ) : null}
          </div>
        ) : null}
        {byStep.size > 0 || !serverQuote.ok ? (
          <section aria-labelledby={`${id}-problems`} className="rounded-md border border-red-200 bg-white px-4 py-3 text-sm" data-testid="review-problems">
            <h2 id={`${id}-problems`} className="font-semibold text-red-900">
              {t("problemsHeading")}
            </h2>
            {!serverQuote.ok && Object.keys(serverQuote.fieldErrors).length === 0 ? <p className="mt-1 text-red-900">{serverQuote.error}</p> : null}
            <ul className="mt-2 flex flex-col gap-2">
              {WIZARD_STEPS.filter((s) => byStep.has(s)).map((step) => (
                <li key={step}>
                  <span className="font-medium text-slate-900">{t("stepProblems", { step: steps(step) })}</span>
                  <ul className="ms-4 list-disc text-red-900">
                    {(byStep.get(step) ?? []).flatMap(([pointer, messages]) =>
                      messages.map((m) => <li key={`${pointer}:${m}`}>{t("problem", { where: where(pointer), problem: m })}</li>),
                    )}
                  </ul>
                  {step !== "review" ? (
                    <Link href={stepHref(step, draft.id)} className="text-sm font-medium text-emerald-800 underline">
                      {t("fixIn", { step: steps(step) })}
                    </Link>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>

      <section aria-labelledby={`${id}-choices`} className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-2">
        <h2 id={`${id}-choices`} className="sr-only">
          {t("choices")}
        </h2>
        <Choice label={steps("locations")} step="locations" draftId={draft.id}>
          {locations.length === 0
            ? t("noLocations")
            : t("locations", {
                count: locations.length,
                names: `${locations
                  .slice(0, 4)
                  .map((l) => isolate(l.name))
                  .join(", ")}${locations.length > 4 ? ", …" : ""}`,
              })}
        </Choice>
        <Choice label={steps("what")} step="what" draftId={draft.id}>
          {body.category ? words(`category.${body.category}`) : t("noCategory")}
          {body.requirements?.angles?.length
            ? ` — ${body.requirements.angles.map((a) => words(`angle.${a}`)).join(", ")}`
            : locations.some((l) => l.requirements?.angles)
              ? ` — ${t("anglesPerLocation")}`
              : ""}
          {body.client_reference ? ` · ${t("reference", { reference: isolate(body.client_reference) })}` : ""}
        </Choice>
        <Choice label={steps("when")} step="when" draftId={draft.id}>
          {(quote?.schedule ? describe(body.recurring, locations[0]?.coordinates) : null) ?? (body.recurring?.enabled ? t("recurring") : t("once"))}
          {/* The day the first cycle falls on if paid now: a window already closed today moves it on. */}
          {quote?.next_cycles?.[0] ? (
            <span data-testid="first-cycle">
              {" "}
              {t.rich("firstCycle", {
                date: localDate(quote.next_cycles[0].local_date, locale, "weekday"),
                time: (chunks) => <time dateTime={quote.next_cycles?.[0]?.local_date}>{chunks}</time>,
              })}
            </span>
          ) : null}
        </Choice>
        <Choice label={steps("delivery")} step="delivery" draftId={draft.id}>
          {body.delivery?.webhook_url ? t("dashboardAnd", { url: isolate(body.delivery.webhook_url) }) : t("dashboardOnly")}
        </Choice>
      </section>

      {quote ? <QuoteTable quote={quote} recurring={Boolean(body.recurring?.enabled)} frequency={body.recurring?.frequency ?? "monthly"} /> : null}

      {quote || feasibility ? (
        <DeliveryEstimates
          feasibility={feasibility}
          orderEstimate={quote ? quote.delivery_estimate : (feasibility?.estimate ?? null)}
          orderReasons={quote ? quote.delivery_estimate_reasons : (feasibility?.reasons ?? [])}
        />
      ) : null}

      <section aria-labelledby={`${id}-pay`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id={`${id}-pay`} className="text-base font-semibold text-slate-900">
          {t("payment")}
        </h2>
        <p className="text-sm text-slate-700">
          {t.rich("payText", {
            recurring: body.recurring?.enabled ? "yes" : "no",
            strong: (chunks) => <span className="font-medium">{chunks}</span>,
            badge: (chunks) => <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">{chunks}</span>,
          })}
        </p>
        <div>
          <Button
            onClick={() => void place()}
            disabled={pending || blocking || draft.status === "conflict"}
            aria-busy={pending || undefined}
            data-testid="place-order"
          >
            {pending ? t("placing") : quote ? t("placeAndPay", { price: formatMoney(quote.total_cents, quote.currency, locale) }) : t("place")}
          </Button>
        </div>
      </section>
    </WizardFrame>
  );
}

function Choice({ label, step, draftId, children }: { label: string; step: WizardStep; draftId: string; children: ReactNode }) {
  const t = useTranslations("wizard.review");
  return (
    <div className="flex flex-col gap-0.5">
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</span>
        <Link href={stepHref(step, draftId)} className="text-xs font-medium text-emerald-800 underline" aria-label={t("changeLabel", { what: label })}>
          {t("change")}
        </Link>
      </div>
      <p className="text-slate-900">{children}</p>
    </div>
  );
}

const CELL = "px-3 py-2 sm:px-4";
/** Columns shown from the `sm` breakpoint up; on a phone their content sits in the two that remain. */
const WIDE = "hidden sm:table-cell";

/**
 * A footer row: its label spans the four columns before Amount — or, on a phone, the one. Two
 * header cells, only one of them displayed, since a colspan cannot change with the width.
 */
function QuoteSum({ label, strong = false, testId, children }: { label: string; strong?: boolean; testId?: string; children: ReactNode }) {
  const text = strong ? "text-base font-semibold text-slate-900" : "font-medium text-slate-700";
  return (
    <tr>
      <th scope="row" colSpan={4} className={`${CELL} text-end ${text} ${WIDE}`}>
        {label}
      </th>
      <th scope="row" className={`${CELL} text-end ${text} sm:hidden`}>
        {label}
      </th>
      <td className={`${CELL} whitespace-nowrap text-end tabular-nums ${strong ? "text-base font-semibold" : ""}`} data-testid={testId}>
        {children}
      </td>
    </tr>
  );
}

function QuoteTable({ quote, recurring, frequency }: { quote: Quote; recurring: boolean; frequency: string }) {
  const locale = useFormatLocale();
  const t = useTranslations("wizard.review");
  const words = useTranslations("vocabulary");
  const money = (cents: number) => formatMoney(cents, quote.currency, locale);
  const { quota } = quote;
  const short = quota.remaining_this_month !== null && quote.photos_per_cycle > quota.remaining_this_month;
  return (
    <section aria-labelledby="quote-h" className="flex flex-col gap-2" data-testid="quote">
      <h2 id="quote-h" className="text-base font-semibold text-slate-900">
        {recurring ? t("quotePerCycle") : t("quote")}
      </h2>
      {/* On a phone the table keeps two columns, Location and Amount: the angles and "2 × €3.00"
          sit under them, the other columns are hidden (no column is left off-screen to scroll to). */}
      <DataTable
        caption={t("quoteCaption")}
        columns={[
          { label: t("columns.location") },
          { label: t("columns.angles"), className: WIDE },
          { label: t("columns.photos"), className: `text-end ${WIDE}` },
          { label: t("columns.perPhoto"), className: `text-end ${WIDE}` },
          { label: t("columns.amount"), className: "text-end" },
        ]}
      >
        <tbody className="divide-y divide-slate-100">
          {quote.line_items.map((item) => {
            const angles = item.angles.map((a) => words(`angle.${a}`)).join(", ");
            return (
              <tr key={item.location_id}>
                <td className={`${CELL} font-medium text-slate-900`}>
                  {item.name}
                  <span className="block text-xs font-normal text-slate-600 sm:hidden">{angles}</span>
                </td>
                <td className={`${CELL} text-slate-700 ${WIDE}`}>{angles}</td>
                <td className={`${CELL} text-end tabular-nums ${WIDE}`}>{item.quantity}</td>
                <td className={`${CELL} text-end tabular-nums ${WIDE}`}>{money(item.unit_amount_cents)}</td>
                <td className={`${CELL} text-end tabular-nums`}>
                  <span className="whitespace-nowrap">{money(item.amount_cents)}</span>
                  <span className="block whitespace-nowrap text-xs text-slate-600 sm:hidden">
                    {item.quantity} × {money(item.unit_amount_cents)}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
        <tfoot className="border-t border-slate-200 text-sm">
          <QuoteSum label={t("subtotal", { count: quote.photos_per_cycle })}>{money(quote.subtotal_cents)}</QuoteSum>
          {quote.discount ? (
            <QuoteSum label={t("discount", { frequency, percent: quote.discount.percent })}>−{money(quote.discount.amount_cents)}</QuoteSum>
          ) : null}
          <QuoteSum label={recurring ? t("totalPerCycle") : t("total")} strong testId="quote-total">
            {money(quote.total_cents)}
          </QuoteSum>
        </tfoot>
      </DataTable>
      <p className={`text-sm ${short ? "font-medium text-red-800" : "text-slate-600"}`} data-testid="quota">
        {t("plan", { plan: quote.plan })}{" "}
        {quota.photos_per_month === null ? t("unlimited") : t("quotaLeft", { remaining: quota.remaining_this_month ?? 0, limit: quota.photos_per_month })}
        {short ? ` ${t("quotaShort", { count: quote.photos_per_cycle })}` : ""}
      </p>
    </section>
  );
}
