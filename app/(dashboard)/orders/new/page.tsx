import type { Metadata } from "next";
import Link from "next/link";
import { OrderDraftBodySchema } from "@/lib/orders/draft";
import { DiscardDraftButton, StartOrderButton } from "@/components/orders/wizard/start-order";
import { isWizardStep, STEP_LABELS, stepHref } from "@/components/orders/wizard-steps";
import { buttonClasses } from "@/components/ui/button";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { LocalDateTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { ErrorState } from "@/components/ui/states";
import { requirePageAccess } from "@/lib/dashboard/access";

export const metadata: Metadata = { title: "New order" };

export default async function NewOrderPage() {
  const page = await requirePageAccess("editor", "/orders/new");
  const header = <PageHeader title="New order" description="Order photos of up to 500 places: where, what, when, where to deliver — then review the price and pay." />;
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
        <h2 className="text-base font-semibold text-slate-900">Start from scratch</h2>
        <p className="text-sm text-slate-600">The draft is saved on the server as you go, so you can leave and come back, or share the link with a colleague.</p>
        <StartOrderButton />
      </section>
      <section aria-labelledby="drafts-h" className="flex flex-col gap-3">
        <h2 id="drafts-h" className="text-base font-semibold text-slate-900">
          Drafts
        </h2>
        {!data ? (
          <ErrorState title="The drafts could not be loaded">{error?.detail ?? "The service did not answer. Reload to try again."}</ErrorState>
        ) : open.length === 0 ? (
          <p className="text-sm text-slate-600">No drafts in progress.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {open.map((draft) => {
              const body = OrderDraftBodySchema.safeParse(draft.body).data ?? {};
              const name = body.client_reference?.trim() || `Draft of ${draft.created_at.slice(0, 10)}`;
              const step = isWizardStep(draft.step) ? draft.step : "locations";
              return (
                <li key={draft.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
                  <div className="min-w-0 flex-1">
                    <Link href={stepHref(step, draft.id)} className="font-medium text-slate-900 hover:text-emerald-800 hover:underline">
                      {name}
                    </Link>
                    <p className="text-xs text-slate-600">
                      {(body.locations ?? []).length} location{(body.locations ?? []).length === 1 ? "" : "s"} · at {STEP_LABELS[step].toLowerCase()} · saved <LocalDateTime iso={draft.updated_at} />
                    </p>
                  </div>
                  <Link href={stepHref(step, draft.id)} className={buttonClasses({ variant: "secondary", size: "sm" })}>
                    Continue<span className="sr-only"> {name}</span>
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
