"use client";
// The locations step's list: one row per location (name, latitude, longitude, remove), selected and
// hovered together with the map, each with the problems the draft has at that location.
import { useTranslations } from "next-intl";
import { memo, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import type { DraftLocation } from "@/lib/orders/draft";
import { messagesAt, type FieldErrors } from "../wizard-steps";
import { ErrorList } from "./step-field";

export function LocationList({
  locations,
  errors,
  selectedId,
  hoveredId,
  onSelect,
  onHover,
  onRename,
  onPlace,
  onRemove,
  onClear,
}: {
  locations: DraftLocation[];
  errors: FieldErrors;
  selectedId: string | null;
  hoveredId: string | null;
  onSelect: (id: string | null) => void;
  onHover: (id: string | null) => void;
  onRename: (index: number, name: string) => void;
  onPlace: (index: number, coordinates: { lat: number; lng: number }) => void;
  onRemove: (index: number) => void;
  onClear: () => void;
}) {
  const t = useTranslations("wizard.locations.list");
  const listErrors = errors["/locations"];
  return (
    <section aria-labelledby="location-list-h" className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h2 id="location-list-h" className="text-base font-semibold text-slate-900">
          {t("heading", { count: locations.length })}
        </h2>
        {locations.length > 1 ? (
          <Button variant="ghost" size="sm" onClick={onClear}>
            {t("removeAll")}
          </Button>
        ) : null}
      </div>
      <ErrorList id="locations-error" messages={listErrors} className="text-sm font-medium text-red-800" />
      {locations.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-8 text-center text-sm text-slate-600">{t("empty")}</p>
      ) : (
        <ol className="flex max-h-[32rem] flex-col gap-1.5 overflow-y-auto pe-1" data-testid="location-list">
          {locations.map((location, index) => (
            <LocationRow
              key={location.location_id}
              location={location}
              index={index}
              errors={messagesAt(errors, `/locations/${index}`)}
              selected={location.location_id === selectedId}
              hovered={location.location_id === hoveredId}
              onSelect={onSelect}
              onHover={onHover}
              onRename={onRename}
              onPlace={onPlace}
              onRemove={onRemove}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

const LocationRow = memo(function LocationRow({
  location,
  index,
  errors,
  selected,
  hovered,
  onSelect,
  onHover,
  onRename,
  onPlace,
  onRemove,
}: {
  location: DraftLocation;
  index: number;
  errors: string[] | undefined;
  selected: boolean;
  hovered: boolean;
  onSelect: (id: string | null) => void;
  onHover: (id: string | null) => void;
  onRename: (index: number, name: string) => void;
  onPlace: (index: number, coordinates: { lat: number; lng: number }) => void;
  onRemove: (index: number) => void;
}) {
  const t = useTranslations("wizard.locations.row");
  const row = useRef<HTMLLIElement>(null);
  const id = `location-${location.location_id}`;
  const { lat, lng } = location.coordinates;
  useEffect(() => {
    if (selected) row.current?.scrollIntoView({ block: "nearest" });
  }, [selected]);

  function commit(which: "lat" | "lng", raw: string) {
    const value = Number(raw);
    const [min, max] = which === "lat" ? [-90, 90] : [-180, 180];
    if (raw.trim() === "" || !Number.isFinite(value) || value < min || value > max) return false;
    if (value !== location.coordinates[which]) onPlace(index, { ...location.coordinates, [which]: Math.round(value * 1e6) / 1e6 });
    return true;
  }

  return (
    <li
      ref={row}
      data-testid="location-row"
      data-selected={selected || undefined}
      onMouseEnter={() => onHover(location.location_id)}
      onMouseLeave={() => onHover(null)}
      onFocus={() => onSelect(location.location_id)}
      className={`rounded-md border px-3 py-2 ${errors ? "border-red-300 bg-red-50" : selected ? "border-emerald-600 bg-emerald-50" : hovered ? "border-slate-400 bg-white" : "border-slate-200 bg-white"}`}
    >
      <div className="flex flex-wrap items-end gap-2">
        <span aria-hidden className="mb-2 inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-emerald-700 text-xs font-semibold text-white">
          {index + 1}
        </span>
        <label className="flex min-w-40 flex-1 flex-col gap-0.5 text-xs text-slate-600">
          {t("name")}
          <input
            id={`${id}-name`}
            value={location.name}
            maxLength={200}
            aria-label={t("nameOf", { number: index + 1 })}
            aria-invalid={errors ? true : undefined}
            aria-describedby={errors ? `${id}-error` : undefined}
            onChange={(e) => onRename(index, e.target.value)}
            className={`${inputClasses} py-1.5`}
          />
        </label>
        <CoordinateInput key={`lat:${lat}`} label={t("latOf", { number: index + 1 })} short={t("lat")} value={lat} commit={(raw) => commit("lat", raw)} />
        <CoordinateInput key={`lng:${lng}`} label={t("lngOf", { number: index + 1 })} short={t("lng")} value={lng} commit={(raw) => commit("lng", raw)} />
        <Button
          variant="ghost"
          size="sm"
          className="mb-0.5"
          onClick={() => onRemove(index)}
          aria-label={t("removeOf", { number: index + 1, name: location.name })}
        >
          {t("remove")}
        </Button>
      </div>
      <ErrorList id={`${id}-error`} messages={errors} className="mt-1 text-xs font-medium text-red-800" />
    </li>
  );
});

/** A coordinate typed freely and taken on leaving the field (or Enter) when it is a valid number. */
function CoordinateInput({ label, short, value, commit }: { label: string; short: string; value: number; commit: (raw: string) => boolean }) {
  const [invalid, setInvalid] = useState(false);
  return (
    <label className="flex w-28 flex-col gap-0.5 text-xs text-slate-600">
      {short}
      <input
        defaultValue={String(value)}
        inputMode="decimal"
        dir="ltr"
        aria-label={label}
        aria-invalid={invalid || undefined}
        onBlur={(e) => setInvalid(!commit(e.target.value))}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            setInvalid(!commit(e.currentTarget.value));
          }
        }}
        className={`${inputClasses} py-1.5 tabular-nums`}
      />
    </label>
  );
}
