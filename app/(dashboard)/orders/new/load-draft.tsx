import "server-only";
// What every step page of the order wizard does first: check the role (editors and admins), read
// the draft named by ?draft= through the order interface, and say what to render instead when it
// cannot be shown (no draft, gone, already placed, not readable).
import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DraftIdSchema, OrderDraftBodySchema, type OrderDraftBody } from "@/lib/orders/draft";
import type { PriceNotesInput } from "@/lib/orders/price-notes";
import type { InitialDraft } from "@/components/orders/wizard/draft-store";
import { STEP_LABELS, type WizardStep } from "@/components/orders/wizard-steps";
import { buttonClasses } from "@/components/ui/button";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { requirePageAccess, type DashboardAccess } from "@/lib/dashboard/access";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

type Loaded = { ok: true; access: DashboardAccess; initial: InitialDraft } | { ok: false; page: ReactNode };

export function WizardHeader({ step }: { step: WizardStep }) {
  return <PageHeader title={`New order: ${STEP_LABELS[step].toLowerCase()}`} description="Your draft is saved as you go: come back to it from any device, in any tab." />;
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
  const { data: draft, error, response } = await page.access.api.GET("/api/orders/v1/drafts/{id}", { params: { path: { id: draftId } } });
  if (!draft) {
    return {
      ok: false,
      page: (
        <>
          <WizardHeader step={step} />
          {response.status === 404 ? (
            <EmptyState
              title="This draft no longer exists"
              action={
                <Link href="/orders/new" className={buttonClasses()}>
                  Start a new order
                </Link>
              }
            >
              It was discarded, or it belongs to another organisation than the one you are working in.
            </EmptyState>
          ) : (
            <ErrorState title="The draft could not be loaded">{error?.detail ?? "The service did not answer. Reload to try again."}</ErrorState>
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
          <ErrorState title="This draft cannot be read">It was saved by something other than this wizard. Start a new order.</ErrorState>
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
