"use client";
// Step 1 of the order wizard: where. Locations come from clicks on the map, the offline place
// search, or a CSV / GeoJSON file or paste (with every refused row listed); the list and the map
// show the same locations, selected and hovered together. The 500-location limit is counted
// down before it is reached, and anything past it is refused with a reason.
import { useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import type { LngLat } from "@/components/map/layers/draft-locations-layer";
import { Button } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import { importLocations, type ImportProblem, type ImportResult } from "../locations-import";
import type { DraftLocation, OrderDraftBody } from "@/lib/orders/draft";
import { usePlaceIndex } from "@/components/map/use-place-index";
import { searchPlaces, type Place } from "@/components/map/place-search";
import { LOCATIONS_WARNING_AT, MAX_LOCATIONS } from "@/lib/orders/limits";
import { errorsOfStep, messagesAt, stepProblems, type FieldErrors } from "../wizard-steps";
import { useProblemWords } from "./wizard-words";
import { useDraft, type InitialDraft } from "./draft-store";
import { bboxOf, type MapFocus } from "./locations-map";
import { ErrorList } from "./step-field";
import { WizardFrame } from "./wizard-frame";

const LocationsMap = dynamic(() => import("./locations-map").then((m) => m.LocationsMap), {
  ssr: false,
  // A still box: a pulsing one keeps the compositor busy while the map starts (see the map benchmark).
  loading: () => <div aria-hidden className="h-full w-full rounded-md bg-slate-100" />,
});

const MAX_FILE_MB = 5;
/** The kinds of place the offline place list knows (its "class"), each with a word in the catalogue. */
const PLACE_KINDS = new Set(["city", "town", "village"]);

let counter = 0;
/** A location id unique within the order (the API keeps it: loc_ + letters and digits). */
function newLocationId(): string {
  counter = (counter + 1) % 1296;
  return `loc_${Date.now().toString(36)}${counter.toString(36).padStart(2, "0")}${Math.random().toString(36).slice(2, 6)}`;
}

export function LocationsStep({ initial }: { initial: InitialDraft }) {
  const { draft, saver } = useDraft(initial, "locations");
  const t = useTranslations("wizard.locations");
  const wordProblems = useProblemWords();
  const locations = useMemo(() => draft.body.locations ?? [], [draft.body.locations]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [hoveredId, setHoveredId] = useState<string | null>(null);
  const [focus, setFocus] = useState<MapFocus | null>(null);
  const [attempted, setAttempted] = useState(false);
  const room = MAX_LOCATIONS - locations.length;

  const apiErrors = errorsOfStep(draft.apiErrors, "locations");
  const problems: FieldErrors = attempted ? wordProblems(stepProblems(draft.body, "locations")) : {};
  const errors: FieldErrors = { ...problems, ...apiErrors };

  const setLocations = useCallback(
    (recipe: (list: DraftLocation[]) => DraftLocation[], touched: string[]) => saver.update((body: OrderDraftBody) => ({ ...body, locations: recipe(body.locations ?? []) }), touched),
    [saver],
  );

  const add = useCallback(
    (items: { name: string; lat: number; lng: number }[]) => {
      const added = items.map((item) => ({ location_id: newLocationId(), name: item.name, coordinates: { lat: item.lat, lng: item.lng } }));
      setLocations((list) => [...list, ...added].slice(0, MAX_LOCATIONS), ["/locations"]);
      return added;
    },
    [setLocations],
  );

  const onMapAdd = useCallback(
    (at: LngLat) => {
      const [added] = add([{ name: t("defaultName", { number: locations.length + 1 }), ...at }]);
      if (added) setSelectedId(added.location_id);
    },
    [add, locations.length, t],
  );

  const onMove = useCallback(
    (id: string, to: LngLat) => {
      const index = locations.findIndex((l) => l.location_id === id);
      setLocations((list) => list.map((l) => (l.location_id === id ? { ...l, coordinates: { lat: to.lat, lng: to.lng } } : l)), [`/locations/${index}/coordinates`]);
    },
    [setLocations, locations],
  );

  const onRename = useCallback(
    (index: number, name: string) => setLocations((list) => list.map((l, i) => (i === index ? { ...l, name } : l)), [`/locations/${index}/name`]),
    [setLocations],
  );
  const onPlace = useCallback(
    (index: number, coordinates: { lat: number; lng: number }) => setLocations((list) => list.map((l, i) => (i === index ? { ...l, coordinates } : l)), [`/locations/${index}/coordinates`]),
    [setLocations],
  );
  const onRemove = useCallback(
    (index: number) => {
      setLocations((list) => list.filter((_, i) => i !== index), ["/locations"]);
      setSelectedId(null);
    },
    [setLocations],
  );

  const points = useMemo(
    () =>
      locations.map((l, i) => ({
        id: l.location_id,
        label: `${i + 1} · ${l.name}`,
        lat: l.coordinates.lat,
        lng: l.coordinates.lng,
        invalid: Boolean(messagesAt(draft.apiErrors, `/locations/${i}`)),
      })),
    [locations, draft.apiErrors],
  );

  return (
    <WizardFrame
      step="locations"
      draft={draft}
      saver={saver}
      onNext={() => {
        setAttempted(true);
        return Object.keys(stepProblems(draft.body, "locations")).length === 0;
      }}
    >
      <div className="grid gap-6 lg:grid-cols-[24rem_minmax(0,1fr)]">
        <div className="flex min-w-0 flex-col gap-5">
          <LimitNote count={locations.length} />
          <PlaceSearch
            disabled={room <= 0}
            onChoose={(place) => {
              const [added] = add([{ name: place.name, lat: place.lat, lng: place.lng }]);
              if (added) setSelectedId(added.location_id);
              setFocus((f) => ({ key: (f?.key ?? 0) + 1, bbox: [place.lng - 0.01, place.lat - 0.01, place.lng + 0.01, place.lat + 0.01] }));
            }}
          />
          <LocationsImport
            room={room}
            onImport={(items) => {
              const added = add(items);
              // Show every location, old and new, so the import is seen in its context.
              const bbox = bboxOf([...locations, ...added].map((a) => a.coordinates));
              if (bbox) setFocus((f) => ({ key: (f?.key ?? 0) + 1, bbox }));
            }}
          />
        </div>
        <div className="flex min-w-0 flex-col gap-2">
          <p id="locations-map-hint" className="text-sm text-slate-600">
            {t("mapHint")}
          </p>
          <div className="h-[26rem] min-h-0 overflow-hidden rounded-md lg:h-[30rem]">
            <LocationsMap
              label={t("mapLabel")}
              locations={points}
              selectedId={selectedId}
              hoveredId={hoveredId}
              canAdd={room > 0}
              focus={focus}
              onAdd={onMapAdd}
              onMove={onMove}
              onSelect={setSelectedId}
              onHoverChange={setHoveredId}
            />
          </div>
        </div>
      </div>

      <LocationList
        locations={locations}
        errors={errors}
        selectedId={selectedId}
        hoveredId={hoveredId}
        onSelect={setSelectedId}
        onHover={setHoveredId}
        onRename={onRename}
        onPlace={onPlace}
        onRemove={onRemove}
        onClear={() => {
          setLocations(() => [], ["/locations"]);
          setSelectedId(null);
        }}
      />
    </WizardFrame>
  );
}

function LimitNote({ count }: { count: number }) {
  const t = useTranslations("wizard.locations");
  const left = MAX_LOCATIONS - count;
  const tone = left <= 0 ? "border-red-300 bg-red-50 text-red-900" : count >= LOCATIONS_WARNING_AT ? "border-amber-300 bg-amber-50 text-amber-950" : "border-slate-200 bg-white text-slate-700";
  return (
    <div className={`rounded-md border px-3 py-2 text-sm ${tone}`} aria-live="polite" data-testid="locations-count">
      {t.rich("count", { count, max: MAX_LOCATIONS, strong: (chunks) => <span className="font-semibold tabular-nums">{chunks}</span> })}{" "}
      {left <= 0 ? t("full") : count >= LOCATIONS_WARNING_AT ? t("fewLeft", { left }) : t("limit", { max: MAX_LOCATIONS })}
    </div>
  );
}

function PlaceSearch({ disabled, onChoose }: { disabled: boolean; onChoose: (place: Place) => void }) {
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
                  <span className="font-medium text-slate-900">{place.name}</span> <span className="text-xs text-slate-500">{t(`kind.${PLACE_KINDS.has(place.kind) ? place.kind : "other"}`)}</span>
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

function LocationsImport({ room, onImport }: { room: number; onImport: (items: { name: string; lat: number; lng: number }[]) => void }) {
  const id = useId();
  const t = useTranslations("wizard.locations.import");
  const [text, setText] = useState("");
  const [result, setResult] = useState<ImportResult | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  function run(source: string) {
    const imported = importLocations(source, room);
    setResult(imported);
    if (imported.locations.length > 0) onImport(imported.locations);
  }

  return (
    <section aria-labelledby={`${id}-h`} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={`${id}-h`} className="text-sm font-semibold text-slate-900">
        {t("heading")}
      </h2>
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {t.rich("hint", {
          code: (chunks) => (
            <code dir="ltr" className="rounded bg-slate-100 px-1 text-slate-800">
              {chunks}
            </code>
          ),
        })}
      </p>
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium text-slate-800">{t("upload")}</span>
        <input
          type="file"
          accept=".csv,.geojson,.json,text/csv,application/geo+json,application/json"
          disabled={room <= 0}
          className="text-sm file:me-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            setFileError(null);
            if (!file) return;
            if (file.size > MAX_FILE_MB * 1024 * 1024) {
              setFileError(t("tooLarge", { size: MAX_FILE_MB, max: MAX_LOCATIONS }));
              return;
            }
            run(await file.text());
          }}
        />
      </label>
      <label htmlFor={`${id}-paste`} className="text-sm font-medium text-slate-800">
        {t("paste")}
      </label>
      <textarea
        id={`${id}-paste`}
        rows={4}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={"name,lat,lng\nDuomo,43.7731,11.2560"}
        aria-describedby={`${id}-hint`}
        dir="ltr"
        className={`${inputClasses} font-mono text-xs`}
      />
      <Button
        variant="secondary"
        size="sm"
        className="self-start"
        disabled={room <= 0 || text.trim() === ""}
        onClick={() => {
          run(text);
          setText("");
        }}
      >
        {t("importPasted")}
      </Button>
      {fileError ? (
        <p role="alert" className="text-sm text-red-800">
          {fileError}
        </p>
      ) : null}
      {result ? <ImportReport result={result} /> : null}
    </section>
  );
}

function ImportReport({ result }: { result: ImportResult }) {
  const t = useTranslations("wizard.locations");
  const refused = result.errors.length;
  const say = ({ code, ...values }: ImportProblem) =>
    t(`importProblem.${code}`, "geometry" in values ? { ...values, geometry: values.geometry ?? "none" } : "axis" in values ? { ...values, axis: t(`axis.${values.axis}`) } : values);
  return (
    <div role={refused > 0 || result.overLimit > 0 ? "alert" : "status"} className="flex flex-col gap-1 text-sm" data-testid="import-report">
      <p className={result.locations.length > 0 ? "text-emerald-800" : "text-slate-700"}>
        {result.locations.length === 0 ? t("import.none") : t("import.imported", { count: result.locations.length, format: result.format })}
      </p>
      {result.overLimit > 0 ? (
        <p className="text-red-800">{t("import.overLimit", { count: result.overLimit, max: MAX_LOCATIONS })}</p>
      ) : null}
      {refused > 0 ? (
        <>
          <p className="font-medium text-red-800">{t("import.refused", { count: refused, format: result.format })}</p>
          <ul className="max-h-40 list-disc overflow-y-auto ps-5 text-xs text-red-800">
            {result.errors.map((e) => (
              <li key={e.row}>{t("import.line", { format: result.format, row: e.row, problems: e.problems.map(say).join(t("importProblem.separator")) })}</li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

function LocationList({
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
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-8 text-center text-sm text-slate-600">
          {t("empty")}
        </p>
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
        <Button variant="ghost" size="sm" className="mb-0.5" onClick={() => onRemove(index)} aria-label={t("removeOf", { number: index + 1, name: location.name })}>
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
