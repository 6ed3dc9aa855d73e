"use client";

/**
 * Tools for DrawControl: Polygon, Rectangle and Edit show which is active (aria-pressed). Pressing
 * the active drawing tool again keeps it drawing (it never turns drawing off without a word; Esc
 * cancels a shape), pressing the active Edit leaves editing (see pressTool); Undo and Clear act on
 * the draft. One tab stop, arrow keys
 * move between tools (WAI-ARIA toolbar pattern), and a live hint says how to use the active tool.
 */
import { useTranslations } from "next-intl";
import { useRef, useState, type KeyboardEvent, type ReactNode } from "react";

import type { DrawMode } from "./draw-control";

export interface DrawToolbarProps {
  mode: DrawMode;
  onModeChange: (mode: DrawMode) => void;
  onUndo: () => void;
  onClear: () => void;
  canUndo: boolean;
  /** A polygon exists. */
  canClear: boolean;
  /** The polygon can be edited (it exists and has no holes); defaults to canClear. */
  canEdit?: boolean;
  /** Accessible name of the toolbar. */
  label?: string;
  className?: string;
}

/**
 * The mode after pressing `tool` in `mode`. A drawing tool (Polygon, Rectangle) pressed while
 * active stays active: turning drawing off was a silent trap (the next clicks on the map did
 * nothing). Edit pressed while active returns to idle, its hint saying what to do next.
 */
export function pressTool(mode: DrawMode, tool: Exclude<DrawMode, "idle">): DrawMode {
  if (mode !== tool) return tool;
  return tool === "edit" ? "idle" : tool;
}

interface Tool {
  key: string;
  label: string;
  icon: ReactNode;
  pressed?: boolean;
  disabled: boolean;
  onPress: () => void;
}

const ICON_PROPS = {
  "aria-hidden": true,
  viewBox: "0 0 20 20",
  className: "size-4 shrink-0",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 1.6,
  strokeLinejoin: "round",
  strokeLinecap: "round",
} as const;

const ICONS = {
  polygon: (
    <svg {...ICON_PROPS}>
      <path d="M4 7.5 9.5 3.5 16 6.5 14.5 15 5.5 16.5Z" />
    </svg>
  ),
  rectangle: (
    <svg {...ICON_PROPS}>
      <rect x="3.5" y="5" width="13" height="10" rx="0.5" />
    </svg>
  ),
  edit: (
    <svg {...ICON_PROPS}>
      <path d="M4 7.5 9.5 3.5 16 6.5 14.5 15 5.5 16.5Z" strokeDasharray="2 2" />
      <circle cx="9.5" cy="3.5" r="1.6" fill="currentColor" />
      <circle cx="14.5" cy="15" r="1.6" fill="currentColor" />
    </svg>
  ),
  undo: (
    <svg {...ICON_PROPS}>
      <path d="M7 5 3.5 8.5 7 12" />
      <path d="M4 8.5h7.5a4.5 4.5 0 0 1 0 9H9" />
    </svg>
  ),
  clear: (
    <svg {...ICON_PROPS}>
      <path d="M4.5 6h11M8 6V4h4v2M6 6l.8 10h6.4L14 6" />
    </svg>
  ),
};

const BUTTON =
  "inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm font-medium transition-colors " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 " +
  "disabled:cursor-not-allowed disabled:opacity-45";
const IDLE_BUTTON = "text-slate-700 hover:bg-slate-100 disabled:hover:bg-transparent";
const PRESSED_BUTTON = "bg-emerald-700 text-white hover:bg-emerald-800";

export function DrawToolbar({ mode, onModeChange, onUndo, onClear, canUndo, canClear, canEdit = canClear, label, className }: DrawToolbarProps) {
  const t = useTranslations("dashboard.map.draw");
  const toggle = (target: Exclude<DrawMode, "idle">) => {
    const next = pressTool(mode, target);
    if (next !== mode) onModeChange(next);
  };
  const tools: Tool[] = [
    { key: "polygon", label: t("polygon"), icon: ICONS.polygon, pressed: mode === "polygon", disabled: false, onPress: () => toggle("polygon") },
    { key: "rectangle", label: t("rectangle"), icon: ICONS.rectangle, pressed: mode === "rectangle", disabled: false, onPress: () => toggle("rectangle") },
    { key: "edit", label: t("edit"), icon: ICONS.edit, pressed: mode === "edit", disabled: !canEdit && mode !== "edit", onPress: () => toggle("edit") },
    { key: "undo", label: t("undo"), icon: ICONS.undo, disabled: !canUndo, onPress: onUndo },
    { key: "clear", label: t("clear"), icon: ICONS.clear, disabled: !canClear, onPress: onClear },
  ];

  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const [focusKey, setFocusKey] = useState("polygon");
  const enabled = tools.filter((tool) => !tool.disabled);
  // The roving tab stop stays on an enabled tool even when the one it was on becomes disabled.
  const tabStop = enabled.some((tool) => tool.key === focusKey) ? focusKey : (enabled[0]?.key ?? "polygon");

  function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
    // Right is "next" left to right, "previous" in a right-to-left page (the tools are mirrored).
    const rtl = getComputedStyle(event.currentTarget).direction === "rtl";
    const forward = (index: number) => (index + 1) % enabled.length;
    const back = (index: number) => (index - 1 + enabled.length) % enabled.length;
    const moves: Record<string, (index: number) => number> = {
      ArrowRight: rtl ? back : forward,
      ArrowDown: forward,
      ArrowLeft: rtl ? forward : back,
      ArrowUp: back,
      Home: () => 0,
      End: () => enabled.length - 1,
    };
    const move = moves[event.key];
    if (!move || enabled.length === 0) return;
    event.preventDefault();
    const next =
      enabled[
        move(
          Math.max(
            0,
            enabled.findIndex((tool) => tool.key === tabStop),
          ),
        )
      ];
    if (!next) return;
    setFocusKey(next.key);
    buttons.current[tools.findIndex((tool) => tool.key === next.key)]?.focus();
  }

  return (
    <div className={className}>
      <div
        role="toolbar"
        aria-label={label ?? t("label")}
        aria-orientation="horizontal"
        onKeyDown={moveFocus}
        className="inline-flex flex-wrap items-center gap-1 rounded-md border border-slate-200 bg-white p-1 shadow-sm"
      >
        {tools.map((tool, index) => (
          <span key={tool.key} className="contents">
            {tool.key === "undo" && <span aria-hidden className="mx-0.5 h-5 w-px bg-slate-200" />}
            <button
              ref={(element) => {
                buttons.current[index] = element;
              }}
              type="button"
              aria-pressed={tool.pressed}
              disabled={tool.disabled}
              tabIndex={tool.key === tabStop ? 0 : -1}
              onFocus={() => setFocusKey(tool.key)}
              onClick={tool.onPress}
              className={`${BUTTON} ${tool.pressed ? PRESSED_BUTTON : IDLE_BUTTON}`}
            >
              {tool.icon}
              {tool.label}
            </button>
          </span>
        ))}
      </div>
      {/* Room for the longest hint (three lines on a phone, two from sm up): changing modes must not move the map below. */}
      <p aria-live="polite" className="mt-1.5 min-h-[3lh] text-xs text-slate-600 sm:min-h-[2lh]">
        {t(`hints.${mode}`)}
      </p>
    </div>
  );
}
