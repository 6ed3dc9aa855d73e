"use client";
// The locations step's import: a CSV or GeoJSON file or paste, read by ../locations-import, with a
// report of what was imported and every refused row (and what the 500-location limit left out).
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/field";
import { MAX_LOCATIONS } from "@/lib/orders/limits";
import { importLocations, type ImportProblem, type ImportResult } from "../locations-import";

const MAX_FILE_MB = 5;

export function LocationsImport({ room, onImport }: { room: number; onImport: (items: { name: string; lat: number; lng: number }[]) => void }) {
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
    t(
      `importProblem.${code}`,
      "geometry" in values ? { ...values, geometry: values.geometry ?? "none" } : "axis" in values ? { ...values, axis: t(`axis.${values.axis}`) } : values,
    );
  return (
    <div role={refused > 0 || result.overLimit > 0 ? "alert" : "status"} className="flex flex-col gap-1 text-sm" data-testid="import-report">
      <p className={result.locations.length > 0 ? "text-emerald-800" : "text-slate-700"}>
        {result.locations.length === 0 ? t("import.none") : t("import.imported", { count: result.locations.length, format: result.format })}
      </p>
      {result.overLimit > 0 ? <p className="text-red-800">{t("import.overLimit", { count: result.overLimit, max: MAX_LOCATIONS })}</p> : null}
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
