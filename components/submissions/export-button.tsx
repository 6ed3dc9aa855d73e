"use client";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import { formatBytes } from "./exif-table";

type ExportState = { phase: "idle" } | { phase: "downloading"; received: number; total: number | null } | { phase: "error"; message: string };

function filenameFrom(disposition: string | null, fallback: string): string {
  const match = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
}

/** Downloads the mission's ZIP through the dashboard proxy, showing bytes received of the exact total. */
export function ExportButton({ missionId }: { missionId: string }) {
  const [state, setState] = useState<ExportState>({ phase: "idle" });
  const abort = useRef<AbortController | null>(null);

  async function start() {
    const controller = new AbortController();
    abort.current = controller;
    setState({ phase: "downloading", received: 0, total: null });
    try {
      const res = await fetch(`/dashboard-api/missions/${missionId}/export`, { signal: controller.signal });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => null)) as { detail?: string } | null;
        throw new Error(body?.detail ?? `The export failed (${res.status}).`);
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
      a.download = filenameFrom(res.headers.get("content-disposition"), `${missionId}.zip`);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState({ phase: "idle" });
    } catch (error) {
      if (controller.signal.aborted) setState({ phase: "idle" });
      else setState({ phase: "error", message: error instanceof Error ? error.message : "The export failed." });
    }
  }

  if (state.phase === "downloading") {
    return (
      <div className="flex min-w-64 items-center gap-3" aria-live="polite">
        <div className="flex flex-1 flex-col gap-1">
          <ProgressBar value={state.received} max={state.total ?? Math.max(state.received, 1)} label="Export download" tone="sky" />
          <span className="text-xs text-slate-600">
            {formatBytes(state.received)}
            {state.total ? ` of ${formatBytes(state.total)}` : ""}
          </span>
        </div>
        <Button variant="ghost" size="sm" onClick={() => abort.current?.abort()}>
          Cancel
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-end gap-1">
      <Button variant="secondary" onClick={() => void start()}>
        Export ZIP
      </Button>
      {state.phase === "error" ? (
        <span role="alert" className="text-xs text-red-700">
          {state.message}
        </span>
      ) : null}
    </div>
  );
}
