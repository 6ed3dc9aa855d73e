"use client";
// Downloads a ZIP through the dashboard's read path (/dashboard-api/…: the credentials stay on the
// server), showing bytes received of the exact total the API announces, with a Cancel.
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { useFormatLocale } from "@/components/ui/use-format-locale";
import { formatBytes } from "./format-bytes";
import { Button } from "./button";
import { ProgressBar } from "./progress-bar";

type DownloadState = { phase: "idle" } | { phase: "downloading"; received: number; total: number | null } | { phase: "error"; message: string };

function filenameFrom(disposition: string | null, fallback: string): string {
  const match = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
}

export function ZipDownloadButton({
  href,
  label,
  progressLabel,
  fallbackName,
  accessibleName,
  variant = "secondary",
  size,
}: {
  href: string;
  label: string;
  /** The progress bar's name (e.g. "Export download"). */
  progressLabel: string;
  fallbackName: string;
  /** A fuller name for the button when its text alone is ambiguous on the page. */
  accessibleName?: string;
  variant?: "secondary" | "ghost";
  size?: "sm";
}) {
  const t = useTranslations("dashboard.ui");
  const locale = useFormatLocale();
  const [state, setState] = useState<DownloadState>({ phase: "idle" });
  const abort = useRef<AbortController | null>(null);

  async function start() {
    const controller = new AbortController();
    abort.current = controller;
    setState({ phase: "downloading", received: 0, total: null });
    try {
      const res = await fetch(href, { signal: controller.signal });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => null)) as { detail?: string } | null;
        throw new Error(body?.detail ?? t("downloadFailedStatus", { status: res.status }));
      }
      const total = Number(res.headers.get("content-length")) || null;
      const reader = res.body.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let received = 0;
      let lastPaint = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        if (performance.now() - lastPaint > 100) {
          lastPaint = performance.now();
          setState({ phase: "downloading", received, total });
        }
      }
      const url = URL.createObjectURL(new Blob(chunks, { type: "application/zip" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = filenameFrom(res.headers.get("content-disposition"), fallbackName);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState({ phase: "idle" });
    } catch (error) {
      if (controller.signal.aborted) setState({ phase: "idle" });
      else setState({ phase: "error", message: error instanceof Error ? error.message : t("downloadFailed") });
    }
  }

  if (state.phase === "downloading") {
    return (
      <div className="flex min-w-64 items-center gap-3" aria-live="polite">
        <div className="flex flex-1 flex-col gap-1">
          <ProgressBar value={state.received} max={state.total ?? Math.max(state.received, 1)} label={progressLabel} tone="sky" />
          <span className="text-xs text-slate-600">
            {state.total
              ? t("received", { received: formatBytes(state.received, locale), total: formatBytes(state.total, locale) })
              : formatBytes(state.received, locale)}
          </span>
        </div>
        <Button variant="ghost" size="sm" onClick={() => abort.current?.abort()}>
          {t("cancel")}
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-1">
      <Button variant={variant} size={size} onClick={() => void start()} aria-label={accessibleName}>
        {label}
      </Button>
      {state.phase === "error" ? (
        <span role="alert" className="text-xs text-red-700">
          {state.message}
        </span>
      ) : null}
    </div>
  );
}
