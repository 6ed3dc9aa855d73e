import Link from "next/link";
import { getTranslations } from "next-intl/server";

export default async function HomePage() {
  const t = await getTranslations("site");
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-6 py-16">
      <header className="flex flex-col gap-3">
        <p className="text-sm font-semibold uppercase tracking-wide text-emerald-700">{t("name")}</p>
        <h1 className="text-4xl font-bold tracking-tight">{t("home.title")}</h1>
        <p className="text-lg text-slate-600">{t("home.intro")}</p>
      </header>
      <nav aria-label={t("home.startHere")} className="grid gap-4 sm:grid-cols-2">
        <Link
          href="/missions"
          className="rounded-lg border border-emerald-600 bg-white p-5 shadow-sm transition hover:bg-emerald-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-emerald-600 sm:col-span-2"
        >
          <span className="block font-semibold">{t("home.dashboard")}</span>
          <span className="mt-1 block text-sm text-slate-600">{t("home.dashboardHint")}</span>
        </Link>
        <Link
          href="/field"
          className="rounded-lg border border-emerald-600 bg-white p-5 shadow-sm transition hover:bg-emerald-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-emerald-600 sm:col-span-2"
        >
          <span className="block font-semibold">{t("home.field")}</span>
          <span className="mt-1 block text-sm text-slate-600">{t("home.fieldHint")}</span>
        </Link>
        <Link
          href="/docs"
          className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm transition hover:border-emerald-600 focus-visible:outline focus-visible:outline-2 focus-visible:outline-emerald-600"
        >
          <span className="block font-semibold">{t("home.reference")}</span>
          <span className="mt-1 block text-sm text-slate-600">{t("home.referenceHint")}</span>
        </Link>
        <a
          href="/api/v1/openapi.json"
          className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm transition hover:border-emerald-600 focus-visible:outline focus-visible:outline-2 focus-visible:outline-emerald-600"
        >
          <span className="block font-semibold">{t("home.openapi")}</span>
          <span className="mt-1 block text-sm text-slate-600">{t("home.openapiHint")}</span>
        </a>
      </nav>
    </main>
  );
}
