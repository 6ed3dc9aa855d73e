// Any address nobody serves, and every notFound() of a page (an order or mission that does not
// exist): the app's own look and a way back, instead of Next's bare default (whose inline style
// the pages' CSP refuses).
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { buttonClasses } from "@/components/ui/button";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("site.notFound"))("title") };
}

const tall = "min-h-11 w-full sm:w-auto";

export default async function NotFound() {
  const t = await getTranslations("site");
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="flex w-full max-w-md flex-col gap-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <div className="flex flex-col gap-2">
          <p className="text-sm font-semibold uppercase tracking-wide text-emerald-700">{t("name")}</p>
          <h1 className="text-2xl font-semibold tracking-tight">{t("notFound.title")}</h1>
          <p className="text-slate-600">{t("notFound.body")}</p>
        </div>
        <nav aria-label={t("notFound.waysBack")} className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <Link href="/missions" className={`${buttonClasses()} ${tall}`}>
            {t("notFound.missions")}
          </Link>
          <Link href="/orders" className={`${buttonClasses({ variant: "secondary" })} ${tall}`}>
            {t("notFound.orders")}
          </Link>
          <Link href="/" className={`${buttonClasses({ variant: "secondary" })} ${tall}`}>
            {t("notFound.home")}
          </Link>
        </nav>
        <p className="text-xs text-slate-500">
          {t.rich("notFound.developers", {
            link: (chunks) => (
              <Link href="/docs" className="underline hover:text-emerald-800">
                {chunks}
              </Link>
            ),
          })}
        </p>
      </div>
    </main>
  );
}
