import type { ReactNode } from "react";

export interface DataTableColumn {
  label: ReactNode;
  className?: string;
}

// Below 768 px a `stacked` table lays each row out as a card: the first cell full width as the
// card's title, the others two to a line, each under its column's name (a <CellLabel>, shown only
// there). The phone's lists had scrolled sideways with clipped headers and one word per line.
// The header row is not shown there (each cell names its column), nor read twice.
const STACKED = [
  "max-md:block max-md:[&>tbody]:block",
  "max-md:[&>tbody>tr]:grid max-md:[&>tbody>tr]:grid-cols-2 max-md:[&>tbody>tr]:gap-x-4 max-md:[&>tbody>tr]:gap-y-3 max-md:[&>tbody>tr]:px-4 max-md:[&>tbody>tr]:py-3",
  "max-md:[&>tbody>tr>td]:block max-md:[&>tbody>tr>td]:min-w-0 max-md:[&>tbody>tr>td]:max-w-none max-md:[&>tbody>tr>td]:p-0 max-md:[&>tbody>tr>td]:text-start",
  "max-md:[&>tbody>tr>td:first-child]:col-span-2 max-md:[&>tbody>tr>td[data-wide]]:col-span-2",
].join(" ");

/**
 * A cell's column name, shown above its value where a `stacked` table is a list of cards. Drawn as
 * generated content (::before from data-label): screen readers name the cell by it, while the
 * cell's text stays its value alone (what a copy, a search or a test reads).
 */
export function CellLabel({ children }: { children: string }) {
  return (
    <span
      data-label={children}
      className="mb-1 block text-xs font-semibold uppercase tracking-wide text-slate-500 before:content-[attr(data-label)] md:hidden"
    />
  );
}

/**
 * The dashboard's tables: a horizontally scrollable frame, a caption for screen readers and the
 * header row; the caller supplies the <tbody>. `card` stands alone on a page, `inset` sits
 * inside another card. `stacked`: cards on a phone (see STACKED; the caller puts a <CellLabel> in
 * every cell but the first, and `data-wide` on a cell that needs the card's full width).
 */
export function DataTable({
  caption,
  columns,
  variant = "card",
  stacked = false,
  children,
}: {
  caption: string;
  columns: DataTableColumn[];
  variant?: "card" | "inset";
  stacked?: boolean;
  children: ReactNode;
}) {
  const cell = variant === "card" ? "px-4 py-3" : "px-3 py-2";
  // The frame scrolls sideways when the table is wider than its column (a narrow sidebar, a
  // tablet): focusable and named, so keyboard users can scroll it too (axe scrollable-region-focusable).
  // `relative` makes it the containing block of absolutely positioned content in the cells (the
  // `sr-only` header labels): without it they escape the frame and widen the whole page on a phone.
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className={`relative focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600 ${
        variant === "card" ? "overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm" : "overflow-x-auto rounded-md border border-slate-200"
      }`}
    >
      <table className={`min-w-full divide-y divide-slate-200 text-sm ${stacked ? STACKED : ""}`}>
        <caption className="sr-only">{caption}</caption>
        <thead
          className={`${stacked ? "max-md:hidden" : ""} whitespace-nowrap bg-slate-50 text-start text-xs font-semibold uppercase tracking-wide text-slate-600`}
        >
          <tr>
            {columns.map((column, i) => (
              <th
                key={i}
                scope="col"
                // A <th> centres its text unless told (the browser's own style wins over the <thead>'s).
                className={`${cell} ${column.className?.includes("text-end") ? "" : "text-start"} ${column.className ?? ""}`}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}
