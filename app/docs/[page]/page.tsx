// The manual's pages for integrators (docs/*.md: quick start, orders, missions, verification, the
// field app, security decisions), rendered on the server from the repository's Markdown.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { renderManualPage, SERVED_PAGES, servedPage } from "@/lib/docs/manual";
import "@/components/docs/manual.css";

type Props = { params: Promise<{ page: string }> };

export const dynamicParams = false;

export function generateStaticParams() {
  return SERVED_PAGES.map((page) => ({ page: page.slug }));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const page = servedPage((await params).page);
  return { title: page ? page.title : "Not found" };
}

export default async function ManualPage({ params }: Props) {
  const page = servedPage((await params).page);
  if (!page) notFound();
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-6 px-6 py-10">
      <nav aria-label="Documentation" className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
        <Link href="/docs" className="text-emerald-700 underline">
          API reference
        </Link>
        {SERVED_PAGES.map((p) =>
          p.slug === page.slug ? (
            <span key={p.slug} aria-current="page" className="font-semibold text-slate-900">
              {p.title}
            </span>
          ) : (
            <Link key={p.slug} href={`/docs/${p.slug}`} className="text-emerald-700 underline">
              {p.title}
            </Link>
          ),
        )}
        <Link href="/docs/webhooks" className="text-emerald-700 underline">
          Webhooks
        </Link>
        <Link href="/docs/clients" className="text-emerald-700 underline">
          Client libraries
        </Link>
      </nav>
      {/* The repository's own Markdown, rendered by lib/docs/manual (no user input reaches it). */}
      <article className="manual" dangerouslySetInnerHTML={{ __html: renderManualPage(page) }} />
    </main>
  );
}
