import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

/** Designed empty, error and loading states, so no page ever shows a blank area. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <p className="text-base font-semibold text-slate-900">{title}</p>
      {children ? <div className="max-w-md text-sm text-slate-600">{children}</div> : null}
      {action}
    </div>
  );
}

export function ErrorState({ title, children, action }: { title?: string; children?: ReactNode; action?: ReactNode }) {
  const t = useTranslations("common.states");
  return (
    <div role="alert" className="flex flex-col gap-2 rounded-lg border border-red-200 bg-red-50 px-5 py-4 text-sm text-red-900">
      <p className="font-semibold">{title ?? t("error")}</p>
      {children ? <div>{children}</div> : null}
      {action}
    </div>
  );
}

/**
 * A state that is not a failure (a mission that cannot be edited, because it belongs to an order or
 * is finished): neutral colours and `role="status"`, so neither the eye nor a screen reader takes it
 * for an error.
 */
export function NoticeState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div role="status" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white px-5 py-4 text-sm text-slate-800">
      <p className="font-semibold text-slate-900">{title}</p>
      {children ? <div>{children}</div> : null}
      {action}
    </div>
  );
}

/**
 * A placeholder block. `still`: no pulse — beside a map that is starting, an animation keeps the
 * compositor drawing the whole page (the map's canvas included) every frame while the map needs
 * the CPU (measured by the map-points benchmark).
 */
export function Skeleton({ className = "", still = false }: { className?: string; still?: boolean }) {
  return <div aria-hidden className={`${still ? "" : "animate-pulse "}rounded-md bg-slate-200 ${className}`} />;
}

export function LoadingRows({ rows = 5, label, still = false }: { rows?: number; label?: string; still?: boolean }) {
  const t = useTranslations("common.states");
  return (
    <div role="status" aria-label={label ?? t("loading")} className="flex flex-col gap-2">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-12 w-full" still={still} />
      ))}
    </div>
  );
}

/** A form's or dialog's own error (field errors sit beside their fields). */
export function FormError({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
      {children}
    </p>
  );
}
