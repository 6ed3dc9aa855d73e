"use client";
// Step 1 of the order wizard: where. Locations come from clicks on the map, the offline place
// search, or a CSV / GeoJSON file or paste (with every refused row listed); the list and the map
// show the same locations, selected and hovered together. The 500-location limit is counted
// down before it is reached, and anything past it is refused with a reason.
import { useTranslations } from "next-intl";
import dynamic from "next/dynamic";
import { useCallback, useMemo, useState } from "react";
import type { LngLat } from "@/components/map/layers/draft-locations-layer";
import type { DraftLocation, OrderDraftBody } from "@/lib/orders/draft";
import { LOCATIONS_WARNING_AT, MAX_LOCATIONS } from "@/lib/orders/limits";
import { errorsOfStep, messagesAt, stepProblems, type FieldErrors } from "../wizard-steps";
import { useProblemWords } from "./wizard-words";
import { useDraft, type InitialDraft } from "./draft-store";
import { LocationsImport } from "./locations-import-panel";
import { LocationList } from "./locations-list";
import { bboxOf, type MapFocus } from "./locations-map";
import { PlaceSearch } from "./locations-search";
import { WizardFrame } from "./wizard-frame";

const LocationsMap = dynamic(() => import("./locations-map").then((m) => m.LocationsMap), {
  ssr: false,
  // A still box: a pulsing one keeps the compositor busy while the map starts (see the map benchmark).
  loading: () => <div aria-hidden className="h-full w-full rounded-md bg-slate-100" />,
});

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
    (recipe: (list: DraftLocation[]) => DraftLocation[], touched: string[]) =>
      saver.update((body: OrderDraftBody) => ({ ...body, locations: recipe(body.locations ?? []) }), touched),
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
      setLocations(
        (list) => list.map((l) => (l.location_id === id ? { ...l, coordinates: { lat: to.lat, lng: to.lng } } : l)),
        [`/locations/${index}/coordinates`],
      );
    },
    [setLocations, locations],
  );

  const onRename = useCallback(
    (index: number, name: string) => setLocations((list) => list.map((l, i) => (i === index ? { ...l, name } : l)), [`/locations/${index}/name`]),
    [setLocations],
  );
  const onPlace = useCallback(
    (index: number, coordinates: { lat: number; lng: number }) =>
      setLocations((list) => list.map((l, i) => (i === index ? { ...l, coordinates } : l)), [`/locations/${index}/coordinates`]),
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
  const tone =
    left <= 0
      ? "border-red-300 bg-red-50 text-red-900"
      : count >= LOCATIONS_WARNING_AT
        ? "border-amber-300 bg-amber-50 text-amber-950"
        : "border-slate-200 bg-white text-slate-700";
  return (
    <div className={`rounded-md border px-3 py-2 text-sm ${tone}`} aria-live="polite" data-testid="locations-count">
      {t.rich("count", { count, max: MAX_LOCATIONS, strong: (chunks) => <span className="font-semibold tabular-nums">{chunks}</span> })}{" "}
      {left <= 0 ? t("full") : count >= LOCATIONS_WARNING_AT ? t("fewLeft", { left }) : t("limit", { max: MAX_LOCATIONS })}
    </div>
  );
}
