"use client";
import { useEffect, useRef } from "react";
import { StatusBadge } from "@/components/ui/badge";
import type { Submission } from "./types";

const time = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/**
 * The submissions as a list kept in step with the map: hovering or selecting a row highlights
 * its point, and a point selected on the map scrolls its row into view.
 */
export function SubmissionList({
  submissions,
  selectedId,
  hoveredId,
  onSelect,
  onHover,
}: {
  submissions: Submission[];
  selectedId: string | null;
  hoveredId: string | null;
  onSelect: (id: string) => void;
  onHover: (id: string | null) => void;
}) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!selectedId) return;
    list.current?.querySelector(`[data-submission-id="${CSS.escape(selectedId)}"]`)?.scrollIntoView({ block: "nearest" });
  }, [selectedId]);

  return (
    <ul ref={list} aria-label="Submissions" className="flex flex-col divide-y divide-slate-100" onMouseLeave={() => onHover(null)}>
      {submissions.map((s) => {
        const selected = s.id === selectedId;
        const hovered = s.id === hoveredId;
        return (
          <li key={s.id} data-submission-id={s.id}>
            <button
              type="button"
              aria-current={selected ? "true" : undefined}
              onClick={() => onSelect(s.id)}
              onMouseEnter={() => onHover(s.id)}
              onFocus={() => onHover(s.id)}
              className={`flex w-full items-center justify-between gap-3 px-3 py-2.5 text-left text-sm focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-emerald-600 ${
                selected ? "bg-emerald-50" : hovered ? "bg-slate-50" : "bg-white"
              }`}
            >
              <span className="flex min-w-0 flex-col">
                <span className="truncate font-mono text-xs text-slate-800">{s.id}</span>
                <span className="text-xs text-slate-500">
                  <time dateTime={s.created_at}>{time.format(new Date(s.created_at))}</time> · {s.image_count} photo{s.image_count === 1 ? "" : "s"}
                  {s.location ? "" : " · no GPS"}
                </span>
              </span>
              <StatusBadge status={s.status} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
