"use client";

import Script from "next/script";
import "swagger-ui-dist/swagger-ui.css";
import "./swagger-contrast.css";

interface SwaggerUIBundleOptions {
  url: string;
  dom_id: string;
  deepLinking?: boolean;
  docExpansion?: "list" | "full" | "none";
  defaultModelsExpandDepth?: number;
  onComplete?: () => void;
}

declare global {
  interface Window {
    SwaggerUIBundle?: (options: SwaggerUIBundleOptions) => unknown;
  }
}

/** Swagger UI from our own origin (public/vendor, copied from swagger-ui-dist at install): no CDN. */
export function SwaggerReference({ specUrl }: { specUrl: string }) {
  return (
    <>
      <div id="swagger-ui" data-testid="api-reference" />
      <Script
        src="/vendor/swagger-ui/swagger-ui-bundle.js"
        strategy="afterInteractive"
        onReady={() => {
          // No deep links: Swagger UI renders them as links inside the operation's toggle button,
          // a nested control screen readers cannot operate (axe: nested-interactive).
          window.SwaggerUIBundle?.({
            url: specUrl,
            dom_id: "#swagger-ui",
            deepLinking: false,
            docExpansion: "list",
            defaultModelsExpandDepth: 0,
            // Swagger UI's server picker has a visual label only.
            onComplete: () => document.querySelector("#servers")?.setAttribute("aria-label", "Server"),
          });
        }}
      />
    </>
  );
}
