import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { ApiConsole } from "@/components/docs/api-console";
import { ApiOutlineView } from "@/components/docs/api-outline";
import { OpenApiDocumentSchema, outlineDocument } from "@/components/docs/openapi-outline";
import { serviceFetch } from "@/lib/api-client/transport";
import { SERVED_PAGES } from "@/lib/docs/manual";

export const metadata: Metadata = { title: "API reference" };

const SPEC_PATH = "/api/v1/openapi.json";

/** The public document through the service's own route, as any reader gets it. */
async function loadOutline() {
  const res = await serviceFetch(SPEC_PATH);
  if (!res.ok) return null;
  const parsed = OpenApiDocumentSchema.safeParse(await res.json());
  return parsed.success ? outlineDocument(parsed.data) : null;
}

export default async function DocsPage() {
  // Per request: the document names this deployment's origin (servers, token URL).
  await connection();
  const outline = await loadOutline();
  return (
    <main className="min-h-screen bg-white">
      <header className="border-b border-slate-200 px-4 py-4 sm:px-6">
        <h1 className="text-xl font-semibold">Photo Missions API reference</h1>
        <p className="text-sm text-slate-600">
          OpenAPI 3.1 document:{" "}
          <a className="text-emerald-700 underline" href={SPEC_PATH}>
            {SPEC_PATH}
          </a>
          . Guides:{" "}
          <Link className="text-emerald-700 underline" href="/docs/webhooks">
            webhooks (verifying signatures, retries)
          </Link>
          ;{" "}
          <Link className="text-emerald-700 underline" href="/docs/clients">
            client libraries (TypeScript, Python) with quick starts
          </Link>
          ; OAuth discovery at{" "}
          <a className="break-all text-emerald-700 underline" href="/.well-known/oauth-authorization-server">
            /.well-known/oauth-authorization-server
          </a>
          ; authentication, errors and rate limits are in the document&apos;s introduction.
        </p>
        <nav aria-label="Guides" className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm">
          {SERVED_PAGES.map((page) => (
            <Link key={page.slug} className="text-emerald-700 underline" href={`/docs/${page.slug}`}>
              {page.title}
            </Link>
          ))}
        </nav>
      </header>
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-6 sm:px-6">
        <ApiConsole specUrl={SPEC_PATH} />
        {outline ? (
          <ApiOutlineView outline={outline} />
        ) : (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            The reference could not be read from the service just now. The document itself is at{" "}
            <a className="underline" href={SPEC_PATH}>
              {SPEC_PATH}
            </a>
            ; reload to try again.
          </p>
        )}
      </div>
    </main>
  );
}
