import type { ReactNode } from "react";

export interface DataTableColumn {
  label: ReactNode;
  className?: string;
}

/**
 * The dashboard's tables: a horizontally scrollable frame, a caption for screen readers and the
 * header row; the caller supplies the <tbody>. `card` stands alone on a page, `inset` sits
 * inside another card.
 */
export function DataTable({
  caption,
  columns,
  variant = "card",
  children,
}: {
  caption: string;
  columns: DataTableColumn[];
  variant?: "card" | "inset";
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
        variant === "card"
          ? "overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm"
          : "overflow-x-auto rounded-md border border-slate-200"
      }`}
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="whitespace-nowrap bg-slate-50 text-start text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            {columns.map((column, i) => (
              <th
                key={i}
                scope="col"
                className={`${cell} ${column.className ?? ""}`}
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
