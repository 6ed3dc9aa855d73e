"use client";

import Script from "next/script";
import "swagger-ui-dist/swagger-ui.css";

interface SwaggerUIBundleOptions {
  url: string;
  dom_id: string;
  deepLinking?: boolean;
  docExpansion?: "list" | "full" | "none";
  defaultModelsExpandDepth?: number;
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
          window.SwaggerUIBundle?.({ url: specUrl, dom_id: "#swagger-ui", deepLinking: true, docExpansion: "list", defaultModelsExpandDepth: 0 });
        }}
      />
    </>
  );
}
