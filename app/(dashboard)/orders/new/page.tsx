import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { OrderDraftBodySchema } from "@/lib/orders/draft";
import { DiscardDraftButton, StartOrderButton } from "@/components/orders/wizard/start-order";
import { isWizardStep, stepHref } from "@/components/orders/wizard-steps";
import { buttonClasses } from "@/components/ui/button";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { LocalDateTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { ErrorState } from "@/components/ui/states";
import { requirePageAccess } from "@/lib/dashboard/access";
import { MAX_LOCATIONS } from "@/lib/orders/limits";
import { wizardMetadata } from "./load-draft";

export const generateMetadata = (): Promise<Metadata> => wizardMetadata();

export default async function NewOrderPage() {
  const page = await requirePageAccess("editor", "/orders/new");
  const t = await getTranslations("wizard.drafts");
  const steps = await getTranslations("dashboard.wizard.step");
  const header = <PageHeader title={t("title")} description={t("description", { max: MAX_LOCATIONS })} />;
  if (!page.allowed) {
    return (
      <>
        {header}
        <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />
      </>
    );
  }
  const { data, error } = await page.access.api.GET("/api/orders/v1/drafts");
  const open = (data?.data ?? []).filter((d) => !d.order_id);
  return (
    <>
      {header}
      <section className="flex flex-col items-start gap-3 rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="text-base font-semibold text-slate-900">{t("startHeading")}</h2>
        <p className="text-sm text-slate-600">{t("startText")}</p>
        <StartOrderButton />
      </section>
      <section aria-labelledby="drafts-h" className="flex flex-col gap-3">
        <h2 id="drafts-h" className="text-base font-semibold text-slate-900">
          {t("heading")}
        </h2>
        {!data ? (
          <ErrorState title={t("loadFailed")}>{error?.detail ?? t("noAnswer")}</ErrorState>
        ) : open.length === 0 ? (
          <p className="text-sm text-slate-600">{t("none")}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {open.map((draft) => {
              const body = OrderDraftBodySchema.safeParse(draft.body).data ?? {};
              const name = body.client_reference?.trim() || t("untitled", { created: new Date(draft.created_at) });
              const step = isWizardStep(draft.step) ? draft.step : "locations";
              return (
                <li key={draft.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
                  <div className="min-w-0 flex-1">
                    <Link href={stepHref(step, draft.id)} className="font-medium text-slate-900 hover:text-emerald-800 hover:underline">
                      {name}
                    </Link>
                    <p className="text-xs text-slate-600">
                      {t.rich("summary", { count: (body.locations ?? []).length, step: steps(step), saved: () => <LocalDateTime iso={draft.updated_at} /> })}
                    </p>
                  </div>
                  <Link href={stepHref(step, draft.id)} className={buttonClasses({ variant: "secondary", size: "sm" })}>
                    {t("continue")}
                    <span className="sr-only"> {name}</span>
                  </Link>
                  <DiscardDraftButton id={draft.id} name={name} />
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </>
  );
}
