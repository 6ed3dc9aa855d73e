"use client";
// Swagger UI, on demand: it spends several seconds of the browser's time processing the whole
// document (measured: ≈ 5–8 s to its first operation on the project machine), so the page shows
// the server-rendered reference at once and loads the console only for those who want to try
// requests from the browser.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { SwaggerReference } from "./swagger-reference";

export function ApiConsole({ specUrl }: { specUrl: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="api-console-h" className="flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 px-4 py-3">
      <h2 id="api-console-h" className="text-base font-semibold text-slate-900">
        Interactive console
      </h2>
      {open ? (
        <SwaggerReference specUrl={specUrl} />
      ) : (
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
          <p>Try requests from your browser with Swagger UI (it takes a few seconds to read the whole document).</p>
          <Button variant="secondary" onClick={() => setOpen(true)}>
            Open the interactive console
          </Button>
        </div>
      )}
    </section>
  );
}
