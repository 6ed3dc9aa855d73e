"use client";
/**
 * Keyboard editing of the draft polygon's vertices, for people who cannot or prefer not to drag:
 * one focusable element (role "application", so screen readers pass the keys through) with the
 * key map below, every action announced in a live region. Edits go through `onChange` like a
 * mouse edit, so Undo (the toolbar's, or Ctrl/⌘+Z here) takes them back one at a time.
 */
import { useTranslations } from "next-intl";
import { useId, useState, type KeyboardEvent } from "react";

import type { PolygonGeometry } from "@/lib/geo/polygon";

import { deleteVertex, insertVertexAfter, MIN_VERTICES, moveVertex, ringVertices, stepVertex } from "./edit-vertices";

/** Screen pixels an arrow key moves a vertex; with Shift, ten times as far. */
export const KEY_STEP_PX = 1;
export const KEY_BIG_STEP_PX = 10;

/** The key map's rows: dashboard.map.keys.<keys> and .<keys>Action in the catalogue. */
const VERTEX_KEYS = ["nextPrev", "homeEnd", "arrows", "insert", "delete", "undo"] as const;

interface Projector {
  project(lngLat: [number, number]): { x: number; y: number };
  unproject(point: [number, number]): { lng: number; lat: number };
}

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

const formatPosition = (position: readonly number[] | undefined) => (position ? `${(position[1] ?? 0).toFixed(6)}, ${(position[0] ?? 0).toFixed(6)}` : "");

export function KeyboardVertexEditor({
  polygon,
  selected,
  onSelect,
  onChange,
  onUndo,
  canUndo,
  projector,
}: {
  polygon: PolygonGeometry;
  /** Index of the selected vertex in the outer ring. */
  selected: number;
  onSelect: (index: number) => void;
  onChange: (polygon: PolygonGeometry) => void;
  onUndo: () => void;
  canUndo: boolean;
  /** The map, to turn a step on screen into a step on the ground; null until it has loaded. */
  projector: Projector | null;
}) {
  const t = useTranslations("dashboard.map.keys");
  const id = useId();
  const [announcement, setAnnouncement] = useState("");
  const vertices = ringVertices(polygon);
  const count = vertices.length;
  const index = Math.min(selected, Math.max(0, count - 1));
  const position = vertices[index];

  function select(next: number) {
    onSelect(next);
    setAnnouncement(t("selected", { number: next + 1, count, position: formatPosition(vertices[next]) }));
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const key = event.key;
    const handled = (() => {
      if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "z") {
        if (!canUndo) {
          setAnnouncement(t("nothingToUndo"));
          return true;
        }
        onUndo();
        setAnnouncement(t("undone"));
        return true;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return false;
      if (key === "n" || key === "N" || key === "]") return (select(stepVertex(count, index, 1)), true);
      if (key === "p" || key === "P" || key === "[") return (select(stepVertex(count, index, -1)), true);
      if (key === "Home") return (select(0), true);
      if (key === "End") return (select(count - 1), true);
      const arrow = ARROWS[key];
      if (arrow) {
        if (!projector || !position) return true;
        const step = event.shiftKey ? KEY_BIG_STEP_PX : KEY_STEP_PX;
        const at = projector.project([position[0], position[1]]);
        const to = projector.unproject([at.x + arrow[0] * step, at.y + arrow[1] * step]);
        const moved = moveVertex(polygon, index, [to.lng, to.lat]);
        onChange(moved);
        setAnnouncement(t("moved", { number: index + 1, position: formatPosition(ringVertices(moved)[index]) }));
        return true;
      }
      if (key === "Delete" || key === "Backspace") {
        const smaller = deleteVertex(polygon, index);
        if (!smaller) {
          setAnnouncement(t("keepsMin", { min: MIN_VERTICES }));
          return true;
        }
        onChange(smaller);
        const next = Math.min(index, count - 2);
        onSelect(next);
        setAnnouncement(t("deleted", { number: index + 1, count: count - 1, next: next + 1 }));
        return true;
      }
      if (key === "Insert" || key === "+" || key === "=") {
        const larger = insertVertexAfter(polygon, index);
        onChange(larger);
        onSelect(index + 1);
        setAnnouncement(t("added", { number: index + 2, after: index + 1, count: count + 1 }));
        return true;
      }
      return false;
    })();
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  return (
    <div className="flex flex-col gap-1 text-xs text-slate-700">
      <div
        role="application"
        tabIndex={0}
        aria-label={t("label")}
        aria-roledescription="vertex editor"
        aria-describedby={`${id}-keys`}
        onKeyDown={onKeyDown}
        data-testid="vertex-editor"
        data-vertex={index + 1}
        className="rounded-md border border-slate-300 bg-white px-2.5 py-1.5 font-medium tabular-nums focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
      >
        {t("current", { number: index + 1, count, position: formatPosition(position) })}
      </div>
      <details className="text-slate-600">
        <summary className="cursor-pointer select-none">{t("summary")}</summary>
        <dl id={`${id}-keys`} className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
          {VERTEX_KEYS.map((keys) => (
            <div key={keys} className="contents">
              <dt className="font-medium text-slate-800">{t(keys)}</dt>
              <dd>{t(`${keys}Action`, { step: KEY_STEP_PX, bigStep: KEY_BIG_STEP_PX, min: MIN_VERTICES })}</dd>
            </div>
          ))}
        </dl>
      </details>
      <p aria-live="polite" className="sr-only" data-testid="vertex-announcement">
        {announcement}
      </p>
    </div>
  );
}
