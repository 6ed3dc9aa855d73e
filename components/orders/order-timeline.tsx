"use client";
import { useTranslations } from "next-intl";
import { useInstructionLines } from "@/components/ui/use-server-text";
import { OrderTime } from "./order-time";
import type { TimelineEntry, TimelineKind } from "./order-progress";

const DOTS: Record<TimelineKind, string> = {
  created: "bg-slate-400",
  confirmed: "bg-sky-600",
  charge: "bg-emerald-600",
  refund: "bg-amber-500",
  payment_failed: "bg-red-600",
  dispatched: "bg-sky-600",
  retake: "bg-amber-500",
  delivered: "bg-emerald-600",
  cancelled: "bg-slate-600",
};

/** The order's story, oldest first, as an ordered list. */
export function OrderTimeline({ entries }: { entries: TimelineEntry[] }) {
  const t = useTranslations("orders.page");
  const lines = useInstructionLines();
  return (
    <ol className="flex flex-col" aria-label={t("timelineLabel")} data-testid="order-timeline">
      {entries.map((entry, i) => (
        <li key={`${entry.at}:${entry.kind}:${i}`} className="relative flex gap-3 pb-4 last:pb-0" data-kind={entry.kind}>
          {i < entries.length - 1 ? <span aria-hidden className="absolute start-[5px] top-4 h-full w-px bg-slate-200" /> : null}
          <span aria-hidden className={`relative mt-1.5 size-[11px] shrink-0 rounded-full ring-2 ring-white ${DOTS[entry.kind]}`} />
          <div className="min-w-0 text-sm">
            <p className="font-medium text-slate-900">{entry.title}</p>
            {entry.detail ? <p className="text-xs text-slate-600">{entry.detail}</p> : null}
            {entry.instructions
              ? lines(entry.instructions.codes, entry.instructions.english).map((line, n) => (
                  <p key={n} className="text-xs text-slate-600">
                    {line}
                  </p>
                ))
              : null}
            <p className="text-xs text-slate-500">
              <OrderTime iso={entry.at} />
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}
