"use client";

// Streets / Imagery / Offline, as native radio buttons (arrow keys move between them), shown only
// when more than one basemap is configured.
import { useTranslations } from "next-intl";
import { useId } from "react";

import { availableBasemaps, type BasemapConfig, type BasemapKind } from "@/lib/map/basemap-config";

export function BasemapSwitcher({ config, value, onChange }: { config: BasemapConfig; value: BasemapKind; onChange: (kind: BasemapKind) => void }) {
  const t = useTranslations("dashboard.map");
  const name = useId();
  const kinds = availableBasemaps(config);
  if (kinds.length < 2) return null;
  return (
    <fieldset className="pointer-events-auto flex overflow-hidden rounded-md border border-slate-300 bg-white text-xs shadow-sm">
      <legend className="sr-only">{t("basemap")}</legend>
      {kinds.map((kind) => (
        <label
          key={kind}
          className="relative cursor-pointer border-s border-slate-300 px-2.5 py-1 text-slate-700 first:border-s-0 has-checked:bg-slate-800 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:-outline-offset-2 has-focus-visible:outline-emerald-600"
        >
          <input
            type="radio"
            name={name}
            value={kind}
            checked={value === kind}
            onChange={() => onChange(kind)}
            className="absolute inset-0 cursor-pointer appearance-none opacity-0"
          />
          {t(`basemaps.${kind}`)}
        </label>
      ))}
    </fieldset>
  );
}
