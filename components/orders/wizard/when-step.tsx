"use client";
// Step 3 of the order wizard: when. One-off, or recurring — how often, which day, deliver before
// which day of the month, which season, the local time window, event dates only, pause on extreme
// weather — with the recurrence in words and the price per cycle as the order interface quotes
// them while the form changes (the dates of the next cycles come with the placed order).
import { useEffect, useId, useState } from "react";
import { quoteOrderDraft } from "@/lib/dashboard/order-actions";
import { recurringDiscounts, type PriceNotesInput } from "@/lib/orders/price-notes";
import { Button } from "@/components/ui/button";
import { fieldAria, inputClasses } from "@/components/ui/field";
import { ErrorList, StepField as Field } from "./step-field";
import type { DraftRecurring } from "@/lib/orders/draft";
import { useFormatLocale } from "@/components/dashboard/use-format-locale";
import { formatMoney } from "../order-progress";
import { WEEKDAYS } from "@/lib/orders/recurrence-rule";
import type { QuotePreview } from "../types";
import { errorsOfStep, messagesAt, stepOfPointer, stepProblems, type FieldErrors } from "../wizard-steps";
import { useDraft, type InitialDraft } from "./draft-store";
import { WizardFrame } from "./wizard-frame";

const QUOTE_DELAY_MS = 600;

const cycleDay = (locale: string) => new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

type LiveQuote = { state: "idle" } | { state: "loading" } | { state: "ready"; quote: QuotePreview } | { state: "invalid"; errors: FieldErrors; message: string };

export function WhenStep({ initial, prices }: { initial: InitialDraft; prices: PriceNotesInput | null }) {
  const { draft, saver } = useDraft(initial, "when");
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
  const errors: FieldErrors = { ...(attempted ? stepProblems(body, "when") : {}), ...liveErrors, ...errorsOfStep(draft.apiErrors, "when") };
  const elsewhere = live.state === "invalid" ? [...new Set(Object.keys(live.errors).map(stepOfPointer))].filter((s) => s !== "when") : [];

  const set = (patch: Partial<DraftRecurring>, touched: string[]) =>
    saver.update((b) => ({ ...b, recurring: { ...(b.recurring ?? { enabled: false }), ...patch } }), touched.map((t) => `/recurring${t}`));

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
      aside={<Summary live={live} recurring={recurring.enabled} elsewhere={elsewhere.length > 0} />}
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-base font-semibold text-slate-900">How often?</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {[
            { enabled: false, label: "Once", hint: "Photos are taken as soon as possible, within your plan's delivery promise." },
            { enabled: true, label: "Recurring", hint: `Every day, week or month, charged per cycle${prices && recurringDiscounts(prices) ? ` (${recurringDiscounts(prices)})` : ""}.` },
          ].map((option) => (
            <label
              key={option.label}
              className={`flex cursor-pointer gap-3 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-emerald-600 ${
                recurring.enabled === option.enabled ? "border-emerald-600 bg-emerald-50" : "border-slate-200 bg-white"
              }`}
            >
              <input
                type="radio"
                name="recurring"
                checked={recurring.enabled === option.enabled}
                aria-labelledby={`${id}-${option.label}-name`}
                aria-describedby={`${id}-${option.label}-desc`}
                onChange={() => set(option.enabled ? { enabled: true, frequency: recurring.frequency ?? "weekly", day_of_week: recurring.day_of_week ?? 5 } : { enabled: false }, [""])}
                className="mt-0.5 accent-emerald-700"
              />
              <span>
                <span id={`${id}-${option.label}-name`} className="block font-medium text-slate-900">
                  {option.label}
                </span>
                <span id={`${id}-${option.label}-desc`} className="block text-xs text-slate-600">
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
          <Field id={`${id}-freq`} label="Frequency" errors={err("frequency")}>
            <select
              value={recurring.frequency ?? ""}
              onChange={(e) => set({ frequency: (e.target.value || undefined) as DraftRecurring["frequency"] }, ["/frequency", "/day_of_week", "/deliver_before"])}
              className={inputClasses}
              {...fieldAria(`${id}-freq`, err("frequency"), false)}
            >
              <option value="">Choose…</option>
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
              <option value="monthly">Monthly</option>
            </select>
          </Field>
          {recurring.frequency === "weekly" ? (
            <Field id={`${id}-dow`} label="Day of the week" hint="In each location's own time zone." errors={err("day_of_week")}>
              <select
                value={recurring.day_of_week ?? ""}
                onChange={(e) => set({ day_of_week: e.target.value ? Number(e.target.value) : undefined }, ["/day_of_week"])}
                className={inputClasses}
                {...fieldAria(`${id}-dow`, err("day_of_week"), true)}
              >
                <option value="">Choose…</option>
                {WEEKDAYS.map((day, i) => (
                  <option key={day} value={i + 1}>
                    {day}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          {recurring.frequency === "monthly" ? (
            <Field id={`${id}-before`} label="Deliver before day" hint="Photos arrive before this day of each month (2–31; a shorter month uses its last day)." errors={err("deliver_before")}>
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
          <Field id={`${id}-season`} label="Season" hint="Summer is June–August north of the equator, December–February south of it." errors={err("season")}>
            <select
              value={recurring.season ?? "all_year"}
              onChange={(e) => set({ season: e.target.value as DraftRecurring["season"] }, ["/season"])}
              className={inputClasses}
              {...fieldAria(`${id}-season`, err("season"), true)}
            >
              <option value="all_year">All year</option>
              <option value="summer_only">Summer only</option>
              <option value="winter_only">Winter only</option>
            </select>
          </Field>
          <fieldset className="flex flex-col gap-1.5" aria-describedby={`${id}-window-hint${err("time_window") ? ` ${id}-window-error` : ""}`}>
            <legend className="text-sm font-medium text-slate-800">Time window (optional)</legend>
            <div className="flex items-center gap-2">
              <label className="sr-only" htmlFor={`${id}-from`}>
                Window starts
              </label>
              <input id={`${id}-from`} type="time" value={from} onChange={(e) => setWindow(e.target.value, to)} className={inputClasses} aria-invalid={err("time_window") ? true : undefined} />
              <span aria-hidden>–</span>
              <label className="sr-only" htmlFor={`${id}-to`}>
                Window ends
              </label>
              <input id={`${id}-to`} type="time" value={to} onChange={(e) => setWindow(from, e.target.value)} className={inputClasses} aria-invalid={err("time_window") ? true : undefined} />
            </div>
            <p id={`${id}-window-hint`} className="text-xs text-slate-500">
              Local time at each location; an end before the start runs past midnight.
            </p>
            <ErrorList id={`${id}-window-error`} messages={err("time_window")} />
          </fieldset>

          <fieldset className="flex flex-col gap-2 sm:col-span-2">
            <legend className="sr-only">Event dates</legend>
            <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
              <input
                type="checkbox"
                checked={Boolean(recurring.event_nights_only)}
                onChange={(e) => set({ event_nights_only: e.target.checked, event_dates: e.target.checked ? dates : undefined }, ["/event_nights_only", "/event_dates"])}
                className="size-4 accent-emerald-700"
              />
              Only on event dates
            </label>
            {recurring.event_nights_only ? (
              <div className="flex flex-col gap-2 ps-6">
                <div className="flex items-end gap-2">
                  <label className="flex flex-col gap-1 text-xs text-slate-600">
                    Event date
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
                    Add date
                  </Button>
                </div>
                {dates.length > 0 ? (
                  <ul aria-label="Event dates" className="flex flex-wrap gap-2">
                    {dates.map((d) => (
                      <li key={d} className="flex items-center gap-1 rounded-full bg-slate-100 py-0.5 ps-3 pe-1 text-sm">
                        <time dateTime={d}>{d}</time>
                        <button
                          type="button"
                          aria-label={`Remove ${d}`}
                          className="rounded-full px-1.5 text-slate-600 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-emerald-600"
                          onClick={() => set({ event_dates: dates.filter((x) => x !== d) }, ["/event_dates"])}
                        >
                          ×
                        </button>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-xs text-slate-500">No dates yet.</p>
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
              <span className="font-medium">Skip locations in extreme weather</span>
              <span className="block text-xs text-slate-500">
                A day before each cycle the forecast is checked; a location facing a thunderstorm, heavy rain or snow, a gale or
                extreme heat or cold is left out of that cycle and not charged.
              </span>
            </span>
          </label>
        </div>
      ) : null}
    </WizardFrame>
  );
}

function Summary({ live, recurring, elsewhere }: { live: LiveQuote; recurring: boolean; elsewhere: boolean }) {
  const locale = useFormatLocale();
  return (
    <aside aria-labelledby="when-summary-h" className="flex h-fit flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h2 id="when-summary-h" className="font-semibold text-slate-900">
        In words
      </h2>
      <div aria-live="polite" data-testid="schedule-summary" className="flex flex-col gap-2">
        {live.state === "ready" ? (
          <>
            <p className="text-slate-900">{live.quote.schedule ?? "Once, as soon as possible."}</p>
            <p className="text-slate-700">
              {formatMoney(live.quote.total_cents, live.quote.currency, locale)} {recurring ? "per cycle" : "in total"}
              {live.quote.discount ? `, ${live.quote.discount.percent} % off (${live.quote.discount.reason.toLowerCase()})` : ""}.
            </p>
            {recurring && live.quote.next_cycles && live.quote.next_cycles.length > 0 ? (
              <div className="flex flex-col gap-1">
                <p className="text-xs font-medium text-slate-700" id="when-next-cycles">
                  Next cycles if you confirm now (local dates):
                </p>
                <ul aria-labelledby="when-next-cycles" className="flex flex-col gap-0.5 text-sm tabular-nums text-slate-900" data-testid="next-cycles">
                  {live.quote.next_cycles.map((cycle) => (
                    <li key={cycle.index}>
                      <time dateTime={cycle.local_date}>{cycleDay(locale).format(new Date(`${cycle.local_date}T00:00:00Z`))}</time>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </>
        ) : live.state === "invalid" ? (
          <p className="text-slate-700">{elsewhere ? "Finish the earlier steps to see the schedule and the price." : live.message}</p>
        ) : (
          <p className="text-slate-500">Working it out…</p>
        )}
      </div>
    </aside>
  );
}
