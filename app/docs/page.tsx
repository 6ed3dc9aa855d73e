import type { Metadata } from "next";
import Script from "next/script";

export const metadata: Metadata = { title: "API reference" };

// Swagger UI, served from our own origin (public/vendor, copied from swagger-ui-dist at install):
// the reference works offline and loads nothing from a CDN.
export default function DocsPage() {
  return (
    <main className="min-h-screen bg-white">
      <link rel="stylesheet" href="/vendor/swagger-ui/swagger-ui.css" />
      <header className="border-b border-slate-200 px-6 py-4">
        <h1 className="text-xl font-semibold">Photo Missions API reference</h1>
        <p className="text-sm text-slate-600">
          OpenAPI 3.1 document: <a className="text-emerald-700 underline" href="/api/v1/openapi.json">/api/v1/openapi.json</a>
        </p>
      </header>
      <div id="swagger-ui" data-testid="api-reference" />
      <Script src="/vendor/swagger-ui/swagger-ui-bundle.js" strategy="afterInteractive" />
      <Script id="swagger-ui-init" strategy="lazyOnload">
        {`window.ui = SwaggerUIBundle({ url: "/api/v1/openapi.json", dom_id: "#swagger-ui", deepLinking: true, docExpansion: "list", defaultModelsExpandDepth: 0 });`}
      </Script>
    </main>
  );
}
