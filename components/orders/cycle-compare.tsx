"use client";
// The same location and angle from two cycles of a recurring order, side by side: two selects
// choose the cycles (the latest two to start with), each side shows the photo, when it was taken
// and how its checks went. Native selects: keyboard and screen readers work as everywhere else.
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import type { CycleComparison, CycleShot } from "./cycle-comparison";
import { OrderTime } from "./order-time";
import { checkViews } from "./verification-display";

export function CycleCompare({ comparison, locationName, timeZone }: { comparison: CycleComparison; locationName: string; timeZone: string }) {
  const id = useId();
  const t = useTranslations("orders");
  const vocabulary = useTranslations("vocabulary");
  const { shots } = comparison;
  const [left, setLeft] = useState(shots.at(-2)?.cycle ?? 0);
  const [right, setRight] = useState(shots.at(-1)?.cycle ?? 0);
  const angleLabel = vocabulary(`angle.${comparison.angle}`);
  const sides: { key: string; label: string; value: number; set: (cycle: number) => void }[] = [
    { key: "left", label: t("compare.left"), value: left, set: setLeft },
    { key: "right", label: t("compare.right"), value: right, set: setRight },
  ];
  return (
    <section
      aria-labelledby={`${id}-h`}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
      data-testid="cycle-compare"
      data-angle={comparison.angle}
    >
      <h4 id={`${id}-h`} className="text-sm font-semibold text-slate-900">
        {t("compare.heading", { angle: angleLabel, name: locationName })}
      </h4>
      <div className="flex flex-wrap gap-3">
        {sides.map((side) => (
          <label key={side.key} className="flex items-center gap-2 text-sm text-slate-800">
            {side.label}
            <select
              value={side.value}
              onChange={(e) => side.set(Number(e.target.value))}
              className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-emerald-600"
            >
              {shots.map((shot) => (
                <option key={shot.cycle} value={shot.cycle}>
                  {t("compare.cycle", { cycle: shot.cycle + 1 })}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {sides.map((side) => {
          const shot = shots.find((s) => s.cycle === side.value);
          return shot ? <CycleSide key={side.key} shot={shot} angleLabel={angleLabel} locationName={locationName} timeZone={timeZone} /> : null;
        })}
      </div>
    </section>
  );
}

function CycleSide({ shot, angleLabel, locationName, timeZone }: { shot: CycleShot; angleLabel: string; locationName: string; timeZone: string }) {
  const t = useTranslations("orders");
  const checks = checkViews(shot.photo.verification.ai_checks);
  const passed = checks.filter((c) => c.verdict === "passed").length;
  const evaluated = checks.filter((c) => c.verdict !== "not_evaluated").length;
  return (
    <figure className="flex flex-col gap-1.5" data-testid="cycle-side" data-cycle={shot.cycle}>
      <a href={shot.photo.url} target="_blank" rel="noopener noreferrer" className="block focus-visible:outline-2 focus-visible:outline-emerald-600">
        {/* eslint-disable-next-line @next/next/no-img-element -- signed CDN URLs from our own origin, already sized */}
        <img
          src={shot.photo.thumbnail}
          alt={t("compare.alt", { angle: angleLabel, name: locationName, cycle: shot.cycle + 1 })}
          width={320}
          height={240}
          className="aspect-[4/3] w-full rounded-md bg-slate-100 object-cover"
        />
        <span className="sr-only"> {t("evidence.opensOriginal")}</span>
      </a>
      <figcaption className="text-xs text-slate-700">
        <span className="font-semibold text-slate-900">{t("compare.cycle", { cycle: shot.cycle + 1 })}</span> ·{" "}
        {shot.photo.metadata.captured_at
          ? t.rich("compare.taken", { time: () => <OrderTime iso={shot.photo.metadata.captured_at ?? ""} timeZone={timeZone} /> })
          : t("compare.takenUnknown")}{" "}
        · {t("compare.checksPassed", { passed, evaluated })}
      </figcaption>
    </figure>
  );
}
