// How the mission pages word one QA check: its label, and the measured figure beside what it was
// compared with, each with its unit and meaning ("12.3 m outside the area" · "31.4 m allowed"),
// for passed checks as for failed ones. The API keeps the raw figures (lib/service/qa/checks.ts).
import { formatDateTime } from "@/components/ui/format-time";
import type { QaCheck } from "./types";

export const QA_CHECK_LABELS: Record<QaCheck["check"], string> = {
  decodable: "Decodable image",
  exif_present: "EXIF present",
  gps_present: "GPS present",
  inside_bounds: "Inside the mission area",
  capture_time: "Capture time",
  resolution: "Resolution",
  sharpness: "Sharpness",
  exposure: "Exposure",
  duplicate: "Not a duplicate",
};

export interface QaFigure {
  /** What was measured, in words and units; null when nothing was. */
  measured: string | null;
  /** What it was held against; null when the check has no threshold. */
  threshold: string | null;
}

const num = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

function coordinate(value: number, positive: string, negative: string): string {
  return `${Math.abs(value).toFixed(5)}° ${value >= 0 ? positive : negative}`;
}

/** "45.46420° N, 9.18990° E" from the recorded "lat,lng". */
function position(value: string): string {
  const [lat, lng] = value.split(",").map(Number);
  if (lat === undefined || lng === undefined || !Number.isFinite(lat) || !Number.isFinite(lng)) return value;
  return `${coordinate(lat, "N", "S")}, ${coordinate(lng, "E", "W")}`;
}

function when(value: string): string {
  return Number.isNaN(Date.parse(value)) ? value : formatDateTime(value);
}

/** The check's sentence as its code and figures (checks recorded before codes have none: their English then). */
export function qaSentence(c: QaCheck): { code: string; params: Record<string, string | number> } | null {
  return c.code ? { code: c.code, params: c.params ?? {} } : null;
}

/** The check's figures in words. */
export function qaFigure(c: QaCheck): QaFigure {
  const { value, threshold } = c;
  switch (c.check) {
    case "decodable":
      return { measured: value === true ? "the pixels decode" : "cannot be decoded", threshold: null };
    case "exif_present":
      return { measured: value === true ? "camera metadata found" : "no camera metadata", threshold: null };
    case "gps_present":
      return { measured: typeof value === "string" ? position(value) : "no position recorded", threshold: null };
    case "inside_bounds":
      return {
        measured: typeof value !== "number" ? "position unknown" : value <= 0 ? "inside the area" : `${num(value)} m outside the area`,
        threshold: typeof threshold === "number" ? `${num(threshold)} m allowed` : null,
      };
    case "capture_time": {
      const measured = typeof value === "string" ? `taken ${when(value)}` : "time not recorded";
      if (typeof threshold !== "string" || typeof value !== "string") return { measured, threshold: null };
      return { measured, threshold: Date.parse(value) < Date.parse(threshold) ? `not before ${when(threshold)}` : `not after ${when(threshold)}` };
    }
    case "resolution":
      return {
        measured: typeof value === "number" ? `shorter side ${num(value)} px` : "not measured",
        threshold: typeof threshold === "number" ? `at least ${num(threshold)} px` : null,
      };
    case "sharpness":
      return {
        measured: typeof value === "number" ? `sharpness ${num(value)}` : "not measured",
        threshold: typeof threshold === "number" ? `at least ${num(threshold)}` : null,
      };
    case "exposure":
      return {
        measured: typeof value === "number" ? `mean brightness ${num(value)} of 255` : "not measured",
        threshold: typeof threshold === "string" ? `${threshold} allowed` : null,
      };
    case "duplicate":
      return {
        measured: typeof value === "string" ? `repeats ${value}` : "no earlier photo alike",
        threshold: typeof threshold === "number" ? `a repeat differs in ${num(threshold)} of 64 hash bits or fewer` : null,
      };
  }
}
