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

/** One drawing of the chart: its size in SVG units, and the text size it is drawn with. */
interface Layout {
  width: number;
  height: number;
  pad: { top: number; right: number; bottom: number; left: number };
  /** Largest text, in SVG units; twelve months' narrow slots shrink it. */
  text: number;
}

// Two drawings of the same figures, one shown at a time: a phone's (about 320 px wide, two thirds
// of these units, so its text stays legible) and a wide one that fills a desktop card (≈ 1,100 px
// at 1366 px, about 1.15 × these units) with text the size of the table's, not blown up.
const NARROW: Layout = { width: 480, height: 250, pad: { top: 34, right: 8, bottom: 48, left: 40 }, text: 15 };
const WIDE: Layout = { width: 960, height: 250, pad: { top: 34, right: 8, bottom: 46, left: 44 }, text: 12 };
const HATCH = "on-time-late-hatch";

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

interface ChartProps {
  months: OnTimeMonth[];
  label: string;
  shareText: (month: OnTimeMonth) => string;
  /** The count axis' title: what the bars count (locations). */
  axisTitle: string;
  legend: { onTime: string; late: string };
}

export function OnTimeChart({ months, label, shareText, axisTitle, legend }: ChartProps) {
  return (
    <figure className="flex flex-col gap-2">
      {/* The hatch, defined once where it is always rendered (a pattern inside a hidden drawing would not paint). */}
      <svg aria-hidden className="absolute size-0">
        <defs>
          <pattern id={HATCH} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="6" height="6" fill="#fde68a" />
            <line x1="0" y1="0" x2="0" y2="6" stroke="#b45309" strokeWidth="2.5" />
          </pattern>
        </defs>
      </svg>
      <Bars layout={NARROW} className="sm:hidden" months={months} label={label} shareText={shareText} axisTitle={axisTitle} />
      <Bars layout={WIDE} className="hidden sm:block" months={months} label={label} shareText={shareText} axisTitle={axisTitle} />
      <figcaption className="flex flex-wrap gap-4 text-xs text-slate-700" aria-hidden>
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-block size-3 rounded-sm bg-emerald-700" />
          {legend.onTime}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <svg viewBox="0 0 12 12" className="size-3">
            <rect width="12" height="12" fill={`url(#${HATCH})`} stroke="#b45309" />
          </svg>
          {legend.late}
        </span>
      </figcaption>
    </figure>
  );
}

function Bars({ layout, className, months, label, shareText, axisTitle }: Omit<ChartProps, "legend"> & { layout: Layout; className: string }) {
  const { width, height, pad } = layout;
  const max = Math.max(1, ...months.map((m) => m.locations_delivered));
  const step = niceStep(max, 4);
  const top = Math.ceil(max / step) * step;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const slot = plotW / Math.max(1, months.length);
  const barW = Math.min(56, slot * 0.6);
  // Twelve months leave a narrow slot each: the labels shrink with it rather than overlap.
  const textSize = Math.min(layout.text, slot / 2.8);
  const y = (n: number) => pad.top + plotH - (n / top) * plotH;
  const ticks = Array.from({ length: top / step + 1 }, (_, i) => i * step);
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className={`h-auto w-full ${className}`} data-testid="on-time-chart">
      <text x={4} y={12} fontSize={layout.text - 2} fill="#475569">
        {axisTitle}
      </text>
      {ticks.map((tick) => (
        <g key={tick}>
          <line x1={pad.left} x2={width - pad.right} y1={y(tick)} y2={y(tick)} stroke="#e2e8f0" />
          <text x={pad.left - 6} y={y(tick) + 4} textAnchor="end" fontSize={layout.text} fill="#475569">
            {tick}
          </text>
        </g>
      ))}
      {months.map((m, i) => {
        const x = pad.left + slot * i + (slot - barW) / 2;
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
              fill={`url(#${HATCH})`}
              stroke="#b45309"
              strokeWidth={m.delivered_late > 0 ? 1 : 0}
            />
            <text x={x + barW / 2} y={lateTop - 7} textAnchor="middle" fontSize={textSize + 1} fontWeight="600" fill="#0f172a">
              {shareText(m)}
            </text>
            {/* "Sept 2026" on two lines: the month over its year. */}
            <text x={x + barW / 2} y={height - pad.bottom + textSize + 4} textAnchor="middle" fontSize={textSize} fill="#334155">
              {axisLines(m.label).map((line, n) => (
                <tspan key={line} x={x + barW / 2} dy={n === 0 ? 0 : textSize + 2}>
                  {line}
                </tspan>
              ))}
            </text>
          </g>
        );
      })}
      <line x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} stroke="#94a3b8" />
    </svg>
  );
}
