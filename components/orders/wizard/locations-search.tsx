"use client";
// The locations step's place search: the offline place list (loaded on first focus), searched as
// one types; choosing a place adds it as a location.
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { inputClasses } from "@/components/ui/field";
import { usePlaceIndex } from "@/components/map/use-place-index";
import { searchPlaces, type Place } from "@/components/map/place-search";

/** The kinds of place the offline place list knows (its "class"), each with a word in the catalogue. */
const PLACE_KINDS = new Set(["city", "town", "village"]);

export function PlaceSearch({ disabled, onChoose }: { disabled: boolean; onChoose: (place: Place) => void }) {
  const id = useId();
  const t = useTranslations("wizard.locations.search");
  const [query, setQuery] = useState("");
  const { index, state, load } = usePlaceIndex();

  const results = index ? searchPlaces(index, query) : [];
  return (
    <section aria-labelledby={`${id}-h`} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={`${id}-h`} className="text-sm font-semibold text-slate-900">
        {t("heading")}
      </h2>
      <label htmlFor={`${id}-q`} className="sr-only">
        {t("label")}
      </label>
      <input
        id={`${id}-q`}
        type="search"
        value={query}
        disabled={disabled}
        placeholder={t("placeholder")}
        autoComplete="off"
        aria-describedby={`${id}-hint`}
        className={inputClasses}
        onFocus={load}
        onChange={(e) => {
          load();
          setQuery(e.target.value);
        }}
      />
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {t("hint")}
      </p>
      <div aria-live="polite" className="text-xs text-slate-600">
        {state === "loading" ? t("loading") : state === "failed" ? t("failed") : query.trim().length >= 2 && index ? t("found", { count: results.length }) : ""}
      </div>
      {results.length > 0 ? (
        <ul aria-label={t("results")} className="flex flex-col divide-y divide-slate-100 rounded-md border border-slate-200">
          {results.map((place) => (
            <li key={`${place.name}:${place.lat}:${place.lng}`}>
              <button
                type="button"
                className="flex w-full items-center justify-between gap-2 px-3 py-2 text-start text-sm hover:bg-emerald-50 focus-visible:outline-2 focus-visible:outline-emerald-600"
                onClick={() => {
                  onChoose(place);
                  setQuery("");
                }}
              >
                <span>
                  <span className="font-medium text-slate-900">{place.name}</span>{" "}
                  <span className="text-xs text-slate-500">{t(`kind.${PLACE_KINDS.has(place.kind) ? place.kind : "other"}`)}</span>
                </span>
                <span className="shrink-0 text-xs text-emerald-800">
                  <span aria-hidden>{t("add")}</span>
                  <span className="sr-only">{t("addPlace", { name: place.name })}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
