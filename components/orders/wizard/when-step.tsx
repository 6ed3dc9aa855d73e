"use client";
// Step 3 of the order wizard: when. One-off, or recurring — how often, which day, deliver before
// which day of the month, which season, the local time window, event dates only, pause on extreme
// weather — with the recurrence in words and the price per cycle as the order interface quotes
// them while the form changes (the dates of the next cycles come with the placed order).
import { useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import { quoteOrderDraft } from "@/lib/dashboard/order-actions";
import type { PriceNotesInput } from "@/lib/orders/price-notes";
import { Button } from "@/components/ui/button";
import { fieldAria, inputClasses } from "@/components/ui/field";
import { ErrorList, StepField as Field } from "./step-field";
import type { DraftRecurring } from "@/lib/orders/draft";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { formatMoney } from "../order-progress";
import { FREQUENCIES } from "@/lib/orders/recurrence-rule";
import type { QuotePreview } from "../types";
import { errorsOfStep, messagesAt, stepOfPointer, stepProblems, type FieldErrors } from "../wizard-steps";
import { localDate, weekdayName } from "../schedule-words";
import { useScheduleDescription } from "../use-schedule-description";
import { useDraft, type InitialDraft } from "./draft-store";
import { useProblemWords } from "./wizard-words";
import { WizardFrame } from "./wizard-frame";

const QUOTE_DELAY_MS = 600;

const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

type LiveQuote =
  { state: "idle" } | { state: "loading" } | { state: "ready"; quote: QuotePreview } | { state: "invalid"; errors: FieldErrors; message: string };

export function WhenStep({ initial, prices }: { initial: InitialDraft; prices: PriceNotesInput | null }) {
  const { draft, saver } = useDraft(initial, "when");
  const t = useTranslations("wizard.when");
  const locale = useFormatLocale();
  const wordProblems = useProblemWords();
  const id = useId();
  const body = draft.body;
  const recurring: DraftRecurring = body.recurring ?? { enabled: false };
  const [attempted, setAttempted] = useState(false);
  const [live, setLive] = useState<LiveQuote>({ state: "idle" });
  const [eventDate, setEventDate] = useState("");
  const [windowStart, windowEnd] = (recurring.time_window ?? "-").split("-");
  const [from, setFrom] = useState(windowStart ?? "");
  const [to, setTo] = useState(windowEnd ?? "");

  // The quote of the form as it is now, shortly after each change (nothing is created).
  useEffect(() => {
    let cancelled = false;
    const timer = setTimeout(() => {
      setLive({ state: "loading" });
      void quoteOrderDraft({ body }).then((result) => {
        if (cancelled) return;
        if (result.ok) setLive({ state: "ready", quote: result.data });
        else setLive({ state: "invalid", errors: result.fieldErrors ?? {}, message: result.error });
      });
    }, QUOTE_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [body]);

  const liveErrors = live.state === "invalid" ? errorsOfStep(live.errors, "when") : {};
  const errors: FieldErrors = { ...(attempted ? wordProblems(stepProblems(body, "when")) : {}), ...liveErrors, ...errorsOfStep(draft.apiErrors, "when") };
  // "10 % off monthly, 15 % off weekly": the discounts the price list gives, smallest first.
  const discounts = prices
    ? FREQUENCIES.map((frequency) => ({ frequency, percent: prices.recurring_discount_percent[frequency] }))
        .filter(({ percent }) => percent > 0)
        .sort((a, b) => a.percent - b.percent)
        .map(({ frequency, percent }) => t(`discountOff.${frequency}`, { percent }))
    : [];
  const elsewhere = live.state === "invalid" ? [...new Set(Object.keys(live.errors).map(stepOfPointer))].filter((s) => s !== "when") : [];

  const set = (patch: Partial<DraftRecurring>, touched: string[]) =>
    saver.update(
      (b) => ({ ...b, recurring: { ...(b.recurring ?? { enabled: false }), ...patch } }),
      touched.map((t) => `/recurring${t}`),
    );

  function setWindow(start: string, end: string) {
    setFrom(start);
    setTo(end);
    if (start && end) set({ time_window: `${start}-${end}` }, ["/time_window"]);
    else if (!start && !end) set({ time_window: undefined }, ["/time_window"]);
  }

  const dates = recurring.event_dates ?? [];
  const err = (member: string) => messagesAt(errors, `/recurring/${member}`);

  return (
    <WizardFrame
      step="when"
      draft={draft}
      saver={saver}
      onNext={() => {
        setAttempted(true);
        return Object.keys(stepProblems(body, "when")).length === 0;
      }}
      aside={<Summary live={live} recurring={recurring} where={body.locations?.[0]?.coordinates} elsewhere={elsewhere.length > 0} />}
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-base font-semibold text-slate-900">{t("howOften")}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {[
            { key: "once", enabled: false, label: t("once"), hint: t("onceHint") },
            {
              key: "recurring",
              enabled: true,
              label: t("recurring"),
              hint:
                discounts.length > 0
                  ? t("recurringHintDiscounts", { discounts: new Intl.ListFormat(locale, { style: "narrow", type: "unit" }).format(discounts) })
                  : t("recurringHint"),
            },
          ].map((option) => (
            <label
              key={option.key}
              className={`flex cursor-pointer gap-3 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-emerald-600 ${
                recurring.enabled === option.enabled ? "border-emerald-600 bg-emerald-50" : "border-slate-200 bg-white"
              }`}
            >
              <input
                type="radio"
                name="recurring"
                checked={recurring.enabled === option.enabled}
                aria-labelledby={`${id}-${option.key}-name`}
                aria-describedby={`${id}-${option.key}-desc`}
                onChange={() =>
                  set(
                    option.enabled
                      ? { enabled: true, frequency: recurring.frequency ?? "weekly", day_of_week: recurring.day_of_week ?? 5 }
                      : { enabled: false },
                    [""],
                  )
                }
                className="mt-0.5 accent-emerald-700"
              />
              <span>
                <span id={`${id}-${option.key}-name`} className="block font-medium text-slate-900">
                  {option.label}
                </span>
                <span id={`${id}-${option.key}-desc`} className="block text-xs text-slate-600">
                  {option.hint}
                </span>
              </span>
            </label>
          ))}
        </div>
        <ErrorList messages={messagesAt(errors, "/recurring", { exact: true })} className="text-sm font-medium text-red-800" />
      </fieldset>

      {recurring.enabled ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={`${id}-freq`} label={t("frequency")} errors={err("frequency")}>
            <select
              value={recurring.frequency ?? ""}
              onChange={(e) =>
                set({ frequency: (e.target.value || undefined) as DraftRecurring["frequency"] }, ["/frequency", "/day_of_week", "/deliver_before"])
              }
              className={inputClasses}
              {...fieldAria(`${id}-freq`, err("frequency"), false)}
            >
              <option value="">{t("choose")}</option>
              {FREQUENCIES.map((f) => (
                <option key={f} value={f}>
                  {t(f)}
                </option>
              ))}
            </select>
          </Field>
          {recurring.frequency === "weekly" ? (
            <Field id={`${id}-dow`} label={t("weekday")} hint={t("weekdayHint")} errors={err("day_of_week")}>
              <select
                value={recurring.day_of_week ?? ""}
                onChange={(e) => set({ day_of_week: e.target.value ? Number(e.target.value) : undefined }, ["/day_of_week"])}
                className={inputClasses}
                {...fieldAria(`${id}-dow`, err("day_of_week"), true)}
              >
                <option value="">{t("choose")}</option>
                {ISO_WEEKDAYS.map((day) => (
                  <option key={day} value={day}>
                    {weekdayName(day, locale)}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          {recurring.frequency === "monthly" ? (
            <Field id={`${id}-before`} label={t("deliverBefore")} hint={t("deliverBeforeHint")} errors={err("deliver_before")}>
              <input
                type="number"
                min={2}
                max={31}
                step={1}
                value={recurring.deliver_before ?? ""}
                onChange={(e) => set({ deliver_before: e.target.value ? Number(e.target.value) : undefined }, ["/deliver_before"])}
                className={inputClasses}
                {...fieldAria(`${id}-before`, err("deliver_before"), true)}
              />
            </Field>
          ) : null}
          <Field id={`${id}-season`} label={t("season")} hint={t("seasonHint")} errors={err("season")}>
            <select
              value={recurring.season ?? "all_year"}
              onChange={(e) => set({ season: e.target.value as DraftRecurring["season"] }, ["/season"])}
              className={inputClasses}
              {...fieldAria(`${id}-season`, err("season"), true)}
            >
              <option value="all_year">{t("allYear")}</option>
              <option value="summer_only">{t("summerOnly")}</option>
              <option value="winter_only">{t("winterOnly")}</option>
            </select>
          </Field>
          <fieldset className="flex flex-col gap-1.5" aria-describedby={`${id}-window-hint${err("time_window") ? ` ${id}-window-error` : ""}`}>
            <legend className="text-sm font-medium text-slate-800">{t("window")}</legend>
            <div className="flex items-center gap-2">
              <label className="sr-only" htmlFor={`${id}-from`}>
                {t("windowStart")}
              </label>
              <input
                id={`${id}-from`}
                type="time"
                value={from}
                onChange={(e) => setWindow(e.target.value, to)}
                className={inputClasses}
                aria-invalid={err("time_window") ? true : undefined}
              />
              <span aria-hidden>–</span>
              <label className="sr-only" htmlFor={`${id}-to`}>
                {t("windowEnd")}
              </label>
              <input
                id={`${id}-to`}
                type="time"
                value={to}
                onChange={(e) => setWindow(from, e.target.value)}
                className={inputClasses}
                aria-invalid={err("time_window") ? true : undefined}
              />
            </div>
            <p id={`${id}-window-hint`} className="text-xs text-slate-500">
              {t("windowHint")}
            </p>
            <ErrorList id={`${id}-window-error`} messages={err("time_window")} />
          </fieldset>

          <fieldset className="flex flex-col gap-2 sm:col-span-2">
            <legend className="sr-only">{t("eventDates")}</legend>
            <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
              <input
                type="checkbox"
                checked={Boolean(recurring.event_nights_only)}
                onChange={(e) =>
                  set({ event_nights_only: e.target.checked, event_dates: e.target.checked ? dates : undefined }, ["/event_nights_only", "/event_dates"])
                }
                className="size-4 accent-emerald-700"
              />
              {t("eventsOnly")}
            </label>
            {recurring.event_nights_only ? (
              <div className="flex flex-col gap-2 ps-6">
                <div className="flex items-end gap-2">
                  <label className="flex flex-col gap-1 text-xs text-slate-600">
                    {t("eventDate")}
                    <input type="date" value={eventDate} onChange={(e) => setEventDate(e.target.value)} className={inputClasses} />
                  </label>
                  <Button
                    variant="secondary"
                    size="sm"
                    className="mb-1"
                    disabled={!eventDate || dates.includes(eventDate)}
                    onClick={() => {
                      set({ event_dates: [...dates, eventDate].sort() }, ["/event_dates"]);
                      setEventDate("");
                    }}
                  >
                    {t("addDate")}
                  </Button>
                </div>
                {dates.length > 0 ? (
                  <ul aria-label={t("eventDates")} className="flex flex-wrap gap-2">
                    {dates.map((d) => (
                      <li key={d} className="flex items-center gap-1 rounded-full bg-slate-100 py-0.5 ps-3 pe-1 text-sm">
                        <time dateTime={d}>{localDate(d, locale)}</time>
                        <button
                          type="button"
                          aria-label={t("removeDate", { date: localDate(d, locale) })}
                          className="rounded-full px-1.5 text-slate-600 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-emerald-600"
                          onClick={() => set({ event_dates: dates.filter((x) => x !== d) }, ["/event_dates"])}
                        >
                          ×
                        </button>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-xs text-slate-500">{t("noDates")}</p>
                )}
                <ErrorList messages={err("event_dates")} />
              </div>
            ) : null}
          </fieldset>

          <label className="flex items-start gap-2 text-sm text-slate-800 sm:col-span-2">
            <input
              type="checkbox"
              checked={Boolean(recurring.pause_conditions?.weather_extreme)}
              onChange={(e) => set({ pause_conditions: e.target.checked ? { weather_extreme: true } : undefined }, ["/pause_conditions"])}
              className="mt-0.5 size-4 accent-emerald-700"
            />
            <span>
              <span className="font-medium">{t("weather")}</span>
              <span className="block text-xs text-slate-500">{t("weatherHint")}</span>
            </span>
          </label>
        </div>
      ) : null}
    </WizardFrame>
  );
}

function Summary({
  live,
  recurring,
  where,
  elsewhere,
}: {
  live: LiveQuote;
  recurring: DraftRecurring;
  where: { lat: number } | undefined;
  elsewhere: boolean;
}) {
  const t = useTranslations("wizard.when");
  const describe = useScheduleDescription();
  const locale = useFormatLocale();
  const frequency = recurring.frequency ?? "monthly";
  return (
    <aside aria-labelledby="when-summary-h" className="flex h-fit flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h2 id="when-summary-h" className="font-semibold text-slate-900">
        {t("inWords")}
      </h2>
      <div aria-live="polite" data-testid="schedule-summary" className="flex flex-col gap-2">
        {live.state === "ready" ? (
          <>
            <p className="text-slate-900">{live.quote.schedule === null ? t("onceSummary") : describe(recurring, where)}</p>
            <p className="text-slate-700">
              {!recurring.enabled
                ? t("priceOnce", { price: formatMoney(live.quote.total_cents, live.quote.currency, locale) })
                : live.quote.discount
                  ? t("pricePerCycleDiscount", {
                      price: formatMoney(live.quote.total_cents, live.quote.currency, locale),
                      percent: live.quote.discount.percent,
                      frequency,
                    })
                  : t("pricePerCycle", { price: formatMoney(live.quote.total_cents, live.quote.currency, locale) })}
            </p>
            {recurring.enabled && live.quote.next_cycles && live.quote.next_cycles.length > 0 ? (
              <div className="flex flex-col gap-1">
                <p className="text-xs font-medium text-slate-700" id="when-next-cycles">
                  {t("nextCycles")}
                </p>
                <ul aria-labelledby="when-next-cycles" className="flex flex-col gap-0.5 text-sm tabular-nums text-slate-900" data-testid="next-cycles">
                  {live.quote.next_cycles.map((cycle) => (
                    <li key={cycle.index}>
                      <time dateTime={cycle.local_date}>{localDate(cycle.local_date, locale, "weekday")}</time>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </>
        ) : live.state === "invalid" ? (
          <p className="text-slate-700">{elsewhere ? t("finishEarlier") : live.message}</p>
        ) : (
          <p className="text-slate-500">{t("working")}</p>
        )}
      </div>
    </aside>
  );
}
