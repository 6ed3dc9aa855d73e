// The on-time report's chart: one bar per month, locations delivered by their promise (solid) and
// after it (hatched, so the two differ without colour), the month's on-time share written above.
// Plain SVG drawn on the server; the same figures are in the table beside it, which is what a
// screen reader reads (the chart is one image with a summary label).
export interface OnTimeMonth {
  month: string;
  label: string;
  locations_delivered: number;
  delivered_on_time: number;
  delivered_late: number;
  /** 0…1, or null when nothing was delivered that month. */
  on_time_share: number | null;
}

// Drawn small (a phone shows it at ~320 px wide, about two thirds of this), so its text stays legible there.
const WIDTH = 480;
const HEIGHT = 250;
const PAD = { top: 30, right: 8, bottom: 48, left: 40 };

/** A round step for the count axis: 1, 2, 5, 10, 20, 50… */
function niceStep(max: number, ticks: number): number {
  const raw = Math.max(1, max / ticks);
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
}

/** A month's label as the axis shows it: split before its last word (the year) when it has one. */
function axisLines(label: string): string[] {
  const cut = label.lastIndexOf(" ");
  return cut > 0 ? [label.slice(0, cut), label.slice(cut + 1)] : [label];
}

export function OnTimeChart({
  months,
  label,
  shareText,
  legend,
}: {
  months: OnTimeMonth[];
  label: string;
  shareText: (month: OnTimeMonth) => string;
  legend: { onTime: string; late: string };
}) {
  const max = Math.max(1, ...months.map((m) => m.locations_delivered));
  const step = niceStep(max, 4);
  const top = Math.ceil(max / step) * step;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, months.length);
  const barW = Math.min(56, slot * 0.6);
  // Twelve months leave a narrow slot each: the labels shrink with it rather than overlap.
  const textSize = Math.min(15, slot / 2.8);
  const y = (n: number) => PAD.top + plotH - (n / top) * plotH;
  const ticks = Array.from({ length: top / step + 1 }, (_, i) => i * step);
  return (
    <figure className="flex flex-col gap-2">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} className="h-auto w-full max-w-2xl" data-testid="on-time-chart">
        <defs>
          <pattern id="late-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="6" height="6" fill="#fde68a" />
            <line x1="0" y1="0" x2="0" y2="6" stroke="#b45309" strokeWidth="2.5" />
          </pattern>
        </defs>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} stroke="#e2e8f0" />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" fontSize="15" fill="#475569">
              {tick}
            </text>
          </g>
        ))}
        {months.map((m, i) => {
          const x = PAD.left + slot * i + (slot - barW) / 2;
          const onTimeTop = y(m.delivered_on_time);
          const lateTop = y(m.delivered_on_time + m.delivered_late);
          return (
            <g key={m.month} data-month={m.month}>
              <rect x={x} y={onTimeTop} width={barW} height={Math.max(0, y(0) - onTimeTop)} fill="#047857" />
              <rect
                x={x}
                y={lateTop}
                width={barW}
                height={Math.max(0, onTimeTop - lateTop)}
                fill="url(#late-hatch)"
                stroke="#b45309"
                strokeWidth={m.delivered_late > 0 ? 1 : 0}
              />
              <text x={x + barW / 2} y={lateTop - 7} textAnchor="middle" fontSize={textSize + 1} fontWeight="600" fill="#0f172a">
                {shareText(m)}
              </text>
              {/* "Sept 2026" on two lines: the month over its year. */}
              <text x={x + barW / 2} y={HEIGHT - PAD.bottom + 19} textAnchor="middle" fontSize={textSize} fill="#334155">
                {axisLines(m.label).map((line, n) => (
                  <tspan key={line} x={x + barW / 2} dy={n === 0 ? 0 : textSize + 2}>
                    {line}
                  </tspan>
                ))}
              </text>
            </g>
          );
        })}
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} stroke="#94a3b8" />
      </svg>
      <figcaption className="flex flex-wrap gap-4 text-xs text-slate-700" aria-hidden>
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-block size-3 rounded-sm bg-emerald-700" />
          {legend.onTime}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <svg viewBox="0 0 12 12" className="size-3">
            <rect width="12" height="12" fill="url(#late-hatch)" stroke="#b45309" />
          </svg>
          {legend.late}
        </span>
      </figcaption>
    </figure>
  );
}
