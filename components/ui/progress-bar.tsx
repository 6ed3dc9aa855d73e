export function ProgressBar({ value, max, label, tone = "emerald" }: { value: number; max: number; label: string; tone?: "emerald" | "sky" }) {
  const pct = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div className={`h-full rounded-full ${tone === "emerald" ? "bg-emerald-600" : "bg-sky-600"} transition-[width]`} style={{ width: `${pct}%` }} />
    </div>
  );
}
