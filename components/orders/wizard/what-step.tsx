"use client";
// Step 2 of the order wizard: what to photograph. The kind of place, the angles (the same for
// every location, or chosen per location), each with the sentence the zoomer reads, the time of
// day, and the order-wide checks the category uses (crowd, brand); plus the partner's own
// reference and a note for the zoomers.
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { fieldAria, inputClasses, TextArea, TextInput } from "@/components/ui/field";
import { ErrorList, StepField as Field } from "./step-field";
import type { DraftLocation, OrderDraftBody } from "@/lib/orders/draft";
import {
  ANGLES,
  CATEGORIES,
  CATEGORY_REQUIREMENTS,
  CROWD_LEVELS,
  SUGGESTED_ANGLES,
  TIMES_OF_DAY,
  type Angle,
  type Category,
  type CrowdLevel,
  type TimeOfDay,
} from "@/lib/orders/vocabulary";
import type { PriceNotesInput } from "@/lib/orders/price-notes";
import { formatMoney } from "../order-progress";
import { errorsOfStep, messagesAt, stepProblems, type FieldErrors } from "../wizard-steps";
import { useDraft, type InitialDraft } from "./draft-store";
import { useProblemWords } from "./wizard-words";
import { WizardFrame } from "./wizard-frame";

function orderedAngles(category: Category | undefined): Angle[] {
  if (!category) return [...ANGLES];
  const suggested: readonly Angle[] = SUGGESTED_ANGLES[category];
  return [...suggested, ...ANGLES.filter((a) => !suggested.includes(a))];
}

export function WhatStep({ initial, prices }: { initial: InitialDraft; prices: PriceNotesInput | null }) {
  const { draft, saver } = useDraft(initial, "what");
  const t = useTranslations("wizard.what");
  const words = useTranslations("vocabulary");
  const locale = useFormatLocale();
  const wordProblems = useProblemWords();
  const id = useId();
  const body = draft.body;
  const locations = body.locations ?? [];
  const [attempted, setAttempted] = useState(false);
  const perLocation = locations.some((l) => l.requirements?.angles !== undefined);
  const category = body.category;
  const uses: readonly string[] = category ? CATEGORY_REQUIREMENTS[category] : [];
  const errors: FieldErrors = { ...(attempted ? wordProblems(stepProblems(body, "what")) : {}), ...errorsOfStep(draft.apiErrors, "what") };
  // Prices beside the choices, from the operator's price list (the quote has the last word).
  const surcharge = (tod: TimeOfDay) => {
    const percent = prices?.time_of_day_surcharge_percent[tod] ?? 0;
    return percent > 0 ? ` (${t("surcharge", { percent })})` : "";
  };
  const withPrice = (hint: string, check: "minimum_crowd" | "brand_match") => {
    const cents = prices?.analysis_surcharge_cents[check] ?? 0;
    return prices && cents > 0 ? `${hint} ${t("perPhoto", { price: formatMoney(cents, prices.currency, locale) })}` : hint;
  };
  const categoryErrors = messagesAt(errors, "/category");
  const angleErrors = messagesAt(errors, "/requirements/angles");
  const requirements = body.requirements ?? {};

  const setRequirement = <K extends keyof NonNullable<OrderDraftBody["requirements"]>>(
    key: K,
    value: NonNullable<OrderDraftBody["requirements"]>[K] | undefined,
  ) =>
    saver.update(
      (b) => {
        const next = { ...(b.requirements ?? {}) };
        if (value === undefined || value === "") delete next[key];
        else next[key] = value;
        return { ...b, requirements: next };
      },
      [`/requirements/${key}`],
    );

  const setPerLocation = (on: boolean) =>
    saver.update(
      (b) => ({
        ...b,
        locations: (b.locations ?? []).map((l): DraftLocation => {
          if (on) return { ...l, requirements: { angles: l.requirements?.angles ?? b.requirements?.angles ?? [] } };
          const rest = { ...l };
          delete rest.requirements;
          return rest;
        }),
      }),
      ["/locations", "/requirements/angles"],
    );

  return (
    <WizardFrame
      step="what"
      draft={draft}
      saver={saver}
      onNext={() => {
        setAttempted(true);
        const problems = stepProblems(body, "what");
        if (Object.keys(problems).length > 0) {
          document.getElementById(problems["/category"] ? `${id}-category` : `${id}-angles`)?.focus();
          return false;
        }
        return true;
      }}
    >
      <fieldset className="flex flex-col gap-2" aria-describedby={categoryErrors ? `${id}-category-error` : undefined}>
        <legend id={`${id}-category`} tabIndex={-1} className="mb-2 text-base font-semibold text-slate-900">
          {t("category")}
        </legend>
        <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {CATEGORIES.map((c) => (
            <label
              key={c}
              className={`flex cursor-pointer gap-3 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-emerald-600 ${
                category === c ? "border-emerald-600 bg-emerald-50" : "border-slate-200 bg-white hover:border-slate-300"
              }`}
            >
              <input
                type="radio"
                name="category"
                value={c}
                checked={category === c}
                aria-labelledby={`${id}-${c}-name`}
                aria-describedby={`${id}-${c}-desc`}
                onChange={() => saver.update((b) => ({ ...b, category: c }), ["/category"])}
                className="mt-0.5 accent-emerald-700"
              />
              <span>
                <span id={`${id}-${c}-name`} className="block font-medium text-slate-900">
                  {words(`category.${c}`)}
                </span>
                <span id={`${id}-${c}-desc`} className="block text-xs text-slate-600">
                  {words(`categoryHint.${c}`)}
                </span>
              </span>
            </label>
          ))}
        </div>
        <ErrorList id={`${id}-category-error`} messages={categoryErrors} className="text-sm font-medium text-red-800" />
      </fieldset>

      <section aria-labelledby={`${id}-angles`} className="flex flex-col gap-3">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h2 id={`${id}-angles`} tabIndex={-1} className="text-base font-semibold text-slate-900">
            {t("angles")}
          </h2>
          {locations.length > 1 ? (
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" checked={perLocation} onChange={(e) => setPerLocation(e.target.checked)} className="size-4 accent-emerald-700" />
              {t("perLocation")}
            </label>
          ) : null}
        </div>
        <p className="text-sm text-slate-600">{category ? t("introSuggested") : t("intro")}</p>
        {!perLocation ? (
          <>
            <AngleChoice
              legend={t("forAll")}
              name="angles-all"
              angles={orderedAngles(category)}
              suggested={category ? SUGGESTED_ANGLES[category] : []}
              value={requirements.angles ?? []}
              errors={angleErrors ?? messagesAt(errors, "/locations/0/requirements/angles")}
              onChange={(angles) =>
                saver.update(
                  (b) => ({ ...b, requirements: { ...(b.requirements ?? {}), angles } }),
                  ["/requirements/angles", ...locations.map((_, i) => `/locations/${i}/requirements`)],
                )
              }
            />
          </>
        ) : (
          <div className="flex flex-col gap-2">
            {locations.map((location, index) => (
              <details
                key={location.location_id}
                className="rounded-lg border border-slate-200 bg-white"
                open={index < 3 || Boolean(messagesAt(errors, `/locations/${index}/requirements`))}
              >
                <summary className="cursor-pointer px-4 py-2 text-sm font-medium text-slate-900">
                  {index + 1}. {location.name}{" "}
                  <span className="font-normal text-slate-600">
                    — {(location.requirements?.angles ?? []).map((a) => words(`angle.${a}`)).join(", ") || t("noAnglesYet")}
                  </span>
                </summary>
                <div className="px-4 pb-3">
                  <AngleChoice
                    legend={t("forLocation", { name: location.name })}
                    name={`angles-${location.location_id}`}
                    angles={orderedAngles(category)}
                    suggested={category ? SUGGESTED_ANGLES[category] : []}
                    value={location.requirements?.angles ?? []}
                    errors={messagesAt(errors, `/locations/${index}/requirements`)}
                    onChange={(angles) =>
                      saver.update(
                        (b) => ({ ...b, locations: (b.locations ?? []).map((l, i) => (i === index ? { ...l, requirements: { angles } } : l)) }),
                        [`/locations/${index}/requirements`],
                      )
                    }
                  />
                </div>
              </details>
            ))}
          </div>
        )}
      </section>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-tod`} label={t("timeOfDay")} hint={t("timeOfDayHint")} errors={messagesAt(errors, "/requirements/time_of_day")}>
          <select
            value={requirements.time_of_day ?? ""}
            onChange={(e) => setRequirement("time_of_day", (e.target.value || undefined) as TimeOfDay | undefined)}
            className={inputClasses}
            {...fieldAria(`${id}-tod`, messagesAt(errors, "/requirements/time_of_day"), true)}
          >
            <option value="">{t("anyTime")}</option>
            {TIMES_OF_DAY.map((tod) => (
              <option key={tod} value={tod}>
                {words(`timeOfDay.${tod}`)}
                {surcharge(tod)}
              </option>
            ))}
          </select>
        </Field>
        {uses.includes("minimum_crowd") ? (
          <Field
            id={`${id}-crowd`}
            label={t("crowd")}
            hint={withPrice(t("crowdHint"), "minimum_crowd")}
            errors={messagesAt(errors, "/requirements/minimum_crowd")}
          >
            <select
              value={requirements.minimum_crowd ?? ""}
              onChange={(e) => setRequirement("minimum_crowd", (e.target.value || undefined) as CrowdLevel | undefined)}
              className={inputClasses}
              {...fieldAria(`${id}-crowd`, messagesAt(errors, "/requirements/minimum_crowd"), true)}
            >
              <option value="">{t("noCrowd")}</option>
              {CROWD_LEVELS.map((c) => (
                <option key={c} value={c}>
                  {words(`crowd.${c}`)}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        {uses.includes("brand_match") ? (
          <Field id={`${id}-brand`} label={t("brand")} hint={withPrice(t("brandHint"), "brand_match")} errors={messagesAt(errors, "/requirements/brand_match")}>
            <TextInput
              value={requirements.brand_match ?? ""}
              maxLength={100}
              onChange={(e) => setRequirement("brand_match", e.target.value)}
              {...fieldAria(`${id}-brand`, messagesAt(errors, "/requirements/brand_match"), true)}
            />
          </Field>
        ) : null}
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-ref`} label={t("reference")} hint={t("referenceHint")} errors={messagesAt(errors, "/client_reference")}>
          <TextInput
            value={body.client_reference ?? ""}
            maxLength={200}
            onChange={(e) => saver.update((b) => ({ ...b, client_reference: e.target.value }), ["/client_reference"])}
            {...fieldAria(`${id}-ref`, messagesAt(errors, "/client_reference"), true)}
          />
        </Field>
        <Field id={`${id}-desc`} label={t("note")} errors={messagesAt(errors, "/description")}>
          <TextArea
            rows={3}
            value={body.description ?? ""}
            maxLength={5000}
            onChange={(e) => saver.update((b) => ({ ...b, description: e.target.value }), ["/description"])}
            {...fieldAria(`${id}-desc`, messagesAt(errors, "/description"), false)}
          />
        </Field>
      </div>
    </WizardFrame>
  );
}

function AngleChoice({
  legend,
  name,
  angles,
  suggested,
  value,
  errors,
  onChange,
}: {
  legend: string;
  name: string;
  angles: Angle[];
  suggested: readonly Angle[];
  value: Angle[];
  errors: string[] | undefined;
  onChange: (angles: Angle[]) => void;
}) {
  const id = useId();
  const t = useTranslations("wizard.what");
  const words = useTranslations("vocabulary");
  return (
    <fieldset aria-describedby={errors ? `${id}-error` : undefined} className="flex flex-col gap-2">
      <legend className="sr-only">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {angles.map((angle) => {
          const checked = value.includes(angle);
          return (
            <label
              key={angle}
              className={`flex cursor-pointer gap-3 rounded-md border px-3 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-emerald-600 ${
                checked ? "border-emerald-600 bg-emerald-50" : "border-slate-200 bg-white hover:border-slate-300"
              }`}
            >
              <input
                type="checkbox"
                name={name}
                value={angle}
                checked={checked}
                aria-labelledby={`${id}-${angle}-name`}
                aria-describedby={`${id}-${angle}-desc`}
                onChange={(e) => onChange(e.target.checked ? ANGLES.filter((a) => a === angle || value.includes(a)) : value.filter((a) => a !== angle))}
                className="mt-0.5 size-4 shrink-0 accent-emerald-700"
              />
              <span>
                <span id={`${id}-${angle}-name`} className="font-medium text-slate-900">
                  {words(`angle.${angle}`)}
                </span>
                {suggested.includes(angle) ? (
                  <span aria-hidden className="ms-2 rounded bg-emerald-100 px-1.5 py-0.5 text-[11px] font-medium text-emerald-900">
                    {t("suggested")}
                  </span>
                ) : null}
                <span id={`${id}-${angle}-desc`} className="block text-xs text-slate-600">
                  {suggested.includes(angle) ? <span className="sr-only">{t("suggestedSr")} </span> : null}
                  {words(`angleHint.${angle}`)}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      <ErrorList id={`${id}-error`} messages={errors} className="text-sm font-medium text-red-800" />
    </fieldset>
  );
}
