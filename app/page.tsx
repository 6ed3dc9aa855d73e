import Link from "next/link";

export default function HomePage() {
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-6 py-16">
      <header className="flex flex-col gap-3">
        <p className="text-sm font-semibold uppercase tracking-wide text-emerald-700">Photo Missions</p>
        <h1 className="text-4xl font-bold tracking-tight">Geotagged photos, where and when you need them.</h1>
        <p className="text-lg text-slate-600">
          Draw a mission on the map, let field contributors photograph it, and receive every verified photo with its EXIF
          intact — by API, webhook or ZIP export.
        </p>
      </header>
      <nav aria-label="Start here" className="grid gap-4 sm:grid-cols-2">
        <Link
          href="/missions"
          className="rounded-lg border border-emerald-600 bg-white p-5 shadow-sm transition hover:bg-emerald-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-emerald-600 sm:col-span-2"
        >
          <span className="block font-semibold">Partner dashboard</span>
          <span className="mt-1 block text-sm text-slate-600">Draw missions, watch submissions arrive on the map, inspect photos and EXIF, export.</span>
        </Link>
        <Link
          href="/docs"
          className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm transition hover:border-emerald-600 focus-visible:outline focus-visible:outline-2 focus-visible:outline-emerald-600"
        >
          <span className="block font-semibold">API reference</span>
          <span className="mt-1 block text-sm text-slate-600">OAuth 2.0, missions, operator interface — OpenAPI 3.1.</span>
        </Link>
        <a
          href="/api/v1/openapi.json"
          className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm transition hover:border-emerald-600 focus-visible:outline focus-visible:outline-2 focus-visible:outline-emerald-600"
        >
          <span className="block font-semibold">OpenAPI document</span>
          <span className="mt-1 block text-sm text-slate-600">Machine-readable, for code generation.</span>
        </a>
      </nav>
    </main>
  );
}
