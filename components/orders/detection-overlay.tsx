"use client";
// The boxes of what the vision model detected, drawn over a photo, with their labels placed so that
// they stay inside the photo and off each other and the photo's controls (./detection-labels.ts).
// Sits in a `relative` frame exactly the photo's size; measures itself, so the labels follow the
// photo's laid-out size (a 255 px thumbnail, a phone's full width, the larger view).
import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { Detection } from "./check-evidence";
import { detectionName } from "./check-evidence";
import { placeLabels, type LabelSubject, type Rect } from "./detection-labels";
import { useOrderWords } from "./use-order-words";

// Dark enough for the white label text on them (WCAG AA, 4.5:1): amber-700 for people, red-700 for the rest.
const BOX_COLOURS: Record<string, string> = { person: "#b45309" };
export const boxColour = (label: string) => BOX_COLOURS[label] ?? "#b91c1c";

const SIZES = {
  // 10 px text on a 16 px line (the thumbnail); 12 px on 20 px (the larger view). Padding 4 px a side.
  sm: { font: 10, line: 16, className: "px-1 text-[10px] leading-4" },
  md: { font: 12, line: 20, className: "px-1 text-xs leading-5" },
} as const;

interface Size {
  width: number;
  height: number;
  obstacles: Rect[];
  fontFamily: string;
}

/** A label's width for its text, in the page's own font (a canvas measures it), padding included. */
function textMeasurer(fontFamily: string, fontPx: number): (text: string) => number {
  const context = typeof document === "undefined" ? null : document.createElement("canvas").getContext("2d");
  if (context) context.font = `600 ${fontPx}px ${fontFamily}`;
  // Without a canvas: a generous 0.62 em a character.
  return (text) => (context ? context.measureText(text).width : text.length * fontPx * 0.62) + 8 + 2;
}

export function DetectionOverlay({
  detections,
  size = "sm",
  controls = [],
}: {
  detections: Detection[];
  size?: keyof typeof SIZES;
  /** The photo's controls drawn over it (a button in a corner): no label covers them. */
  controls?: RefObject<HTMLElement | null>[];
}) {
  const words = useOrderWords();
  const frame = useRef<HTMLDivElement>(null);
  const [laidOut, setLaidOut] = useState<Size | null>(null);
  const style = SIZES[size];

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => {
      const own = element.getBoundingClientRect();
      const obstacles = controls.flatMap((control) => {
        const box = control.current?.getBoundingClientRect();
        return box && box.width > 0 ? [{ x: box.left - own.left, y: box.top - own.top, width: box.width, height: box.height }] : [];
      });
      setLaidOut({ width: own.width, height: own.height, obstacles, fontFamily: getComputedStyle(element).fontFamily });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
    // The controls are refs to elements inside the same frame: their boxes are re-read with the frame's size.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const placement = useMemo(() => {
    if (!laidOut) return null;
    const text = (subject: LabelSubject) =>
      subject.kind === "one"
        ? words.t("evidence.boxOne", { name: detectionName(subject.label, words), score: subject.score })
        : words.has(`evidence.object.${subject.label}`)
          ? words.t(`evidence.object.${subject.label}`, { count: subject.count })
          : `${subject.count} ${subject.label}`;
    return placeLabels({
      detections,
      width: laidOut.width,
      height: laidOut.height,
      obstacles: laidOut.obstacles,
      text,
      measure: textMeasurer(laidOut.fontFamily, style.font),
      labelHeight: style.line,
    });
  }, [laidOut, detections, words, style]);

  return (
    // Physical left/top: the photo is not mirrored in a right-to-left page, so neither are its boxes.
    <div ref={frame} aria-hidden className="pointer-events-none absolute inset-0 overflow-hidden" data-testid="detection-overlay">
      {detections.map((d, i) => (
        <div
          key={`${d.label}-${i}`}
          data-testid="detection-box"
          className="absolute rounded-sm border-2"
          style={{
            left: `${d.box[0] * 100}%`,
            top: `${d.box[1] * 100}%`,
            width: `${d.box[2] * 100}%`,
            height: `${d.box[3] * 100}%`,
            borderColor: boxColour(d.label),
          }}
        />
      ))}
      {placement?.labels.map((label) => (
        <span
          key={label.members.join(",")}
          data-testid="detection-label"
          dir="auto"
          className={`absolute whitespace-nowrap rounded-sm text-center font-semibold text-white ${style.className}`}
          style={{ left: label.rect.x, top: label.rect.y, width: label.rect.width, height: label.rect.height, backgroundColor: boxColour(label.subject.label) }}
        >
          {label.text}
        </span>
      ))}
    </div>
  );
}
