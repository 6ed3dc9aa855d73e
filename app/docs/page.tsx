import type { Metadata } from "next";
import Link from "next/link";
import { SwaggerReference } from "@/components/docs/swagger-reference";

export const metadata: Metadata = { title: "API reference" };

export default function DocsPage() {
  return (
    <main className="min-h-screen bg-white">
      <header className="border-b border-slate-200 px-6 py-4">
        <h1 className="text-xl font-semibold">Photo Missions API reference</h1>
        <p className="text-sm text-slate-600">
          OpenAPI 3.1 document:{" "}
          <a className="text-emerald-700 underline" href="/api/v1/openapi.json">
            /api/v1/openapi.json
          </a>
          . Guides: <Link className="text-emerald-700 underline" href="/docs/webhooks">webhooks (verifying signatures, retries)</Link>;{" "}
          <Link className="text-emerald-700 underline" href="/docs/clients">client libraries (TypeScript, Python) with quick starts</Link>; OAuth
          discovery at{" "}
          <a className="text-emerald-700 underline" href="/.well-known/oauth-authorization-server">
            /.well-known/oauth-authorization-server
          </a>
          ; authentication, errors and rate limits are in the document&apos;s introduction.
        </p>
      </header>
      <SwaggerReference specUrl="/api/v1/openapi.json" />
    </main>
  );
}
