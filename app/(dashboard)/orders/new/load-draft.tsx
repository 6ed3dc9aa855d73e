import "server-only";
// What every step page of the order wizard does first: check the role (editors and admins), read
// the draft named by ?draft= through the order interface, and say what to render instead when it
// cannot be shown (no draft, gone, already placed, not readable).
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DraftIdSchema, OrderDraftBodySchema, type OrderDraftBody } from "@/lib/orders/draft";
import type { PriceNotesInput } from "@/lib/orders/price-notes";
import type { InitialDraft } from "@/components/orders/wizard/draft-store";
import type { WizardStep } from "@/components/orders/wizard-steps";
import { buttonClasses } from "@/components/ui/button";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { requirePageAccess, type DashboardAccess } from "@/lib/dashboard/access";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

type Loaded = { ok: true; access: DashboardAccess; initial: InitialDraft } | { ok: false; page: ReactNode };

/** The tab's title on a step page: "New order", or the step's name for the review. */
export async function wizardMetadata(step?: WizardStep): Promise<Metadata> {
  if (step === "review") return { title: (await getTranslations("dashboard.wizard.step"))("review") };
  return { title: (await getTranslations("wizard.drafts"))("title") };
}

export async function WizardHeader({ step }: { step: WizardStep }) {
  const t = await getTranslations("wizard.header");
  const steps = await getTranslations("dashboard.wizard.step");
  return <PageHeader title={t("title", { step: steps(step) })} description={t("description")} />;
}

export async function loadWizardDraft(step: WizardStep, searchParams: SearchParams): Promise<Loaded> {
  const params = await searchParams;
  const draftId = typeof params.draft === "string" ? params.draft : "";
  const here = `/orders/new/${step}${draftId ? `?draft=${encodeURIComponent(draftId)}` : ""}`;
  const page = await requirePageAccess("editor", here);
  if (!page.allowed) {
    return {
      ok: false,
      page: (
        <>
          <WizardHeader step={step} />
          <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />
        </>
      ),
    };
  }
  if (!DraftIdSchema.safeParse(draftId).success) redirect("/orders/new");
  const t = await getTranslations("wizard");
  const { data: draft, error, response } = await page.access.api.GET("/api/orders/v1/drafts/{id}", { params: { path: { id: draftId } } });
  if (!draft) {
    return {
      ok: false,
      page: (
        <>
          <WizardHeader step={step} />
          {response.status === 404 ? (
            <EmptyState
              title={t("load.gone")}
              action={
                <Link href="/orders/new" className={buttonClasses()}>
                  {t("start.button")}
                </Link>
              }
            >
              {t("load.goneBody")}
            </EmptyState>
          ) : (
            <ErrorState title={t("load.loadFailed")}>{error?.detail ?? t("drafts.noAnswer")}</ErrorState>
          )}
        </>
      ),
    };
  }
  // Placed already (a second tab, a refresh after paying): the order is where to go now.
  if (draft.order_id) redirect(`/orders/${draft.order_id}`);
  const parsed = OrderDraftBodySchema.safeParse(draft.body);
  if (!parsed.success) {
    return {
      ok: false,
      page: (
        <>
          <WizardHeader step={step} />
          <ErrorState title={t("load.unreadable")}>{t("load.unreadableBody")}</ErrorState>
        </>
      ),
    };
  }
  return { ok: true, access: page.access, initial: { id: draft.id, version: draft.version, body: parsed.data as OrderDraftBody, updatedAt: draft.updated_at } };
}

/** The price list in force, for the notes beside the wizard's choices; null when it cannot be read (the notes are then left out). */
export async function loadPrices(access: DashboardAccess): Promise<PriceNotesInput | null> {
  const { data } = await access.api.GET("/api/orders/v1/prices");
  return data ?? null;
}
