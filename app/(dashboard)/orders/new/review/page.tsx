import type { Metadata } from "next";
import type { components } from "@/lib/api-client/openapi-types";
import type { ServerQuote } from "@/components/orders/wizard/review-step";
import { ReviewStep } from "@/components/orders/wizard/review-step";
import { toCreateBody } from "@/lib/orders/draft";
import { problemResult } from "@/lib/dashboard/action-client";
import { WizardHeader, loadWizardDraft, wizardMetadata, type SearchParams } from "../load-draft";

export const generateMetadata = (): Promise<Metadata> => wizardMetadata("review");

export default async function NewOrderReviewPage({ searchParams }: { searchParams: SearchParams }) {
  const loaded = await loadWizardDraft("review", searchParams);
  if (!loaded.ok) return loaded.page;
  // The order interface prices the draft as saved (nothing is created); its refusals are listed.
  // Beside the quote, the same body's feasibility: each location's estimate and its basis.
  const body = toCreateBody(loaded.initial.body) as components["schemas"]["CreateOrder"];
  const [{ data, error, response }, feasible] = await Promise.all([
    loaded.access.api.POST("/api/orders/v1/orders/quote", { body }),
    loaded.access.api.POST("/api/orders/v1/orders/feasibility", { body }),
  ]);
  let serverQuote: ServerQuote;
  if (data) serverQuote = { ok: true, quote: data };
  else {
    const failed = problemResult(response.status, error);
    serverQuote = { ok: false, error: failed.error, fieldErrors: failed.fieldErrors ?? {} };
  }
  return (
    <>
      <WizardHeader step="review" />
      <ReviewStep
        key={`${loaded.initial.id}:${loaded.initial.version}`}
        initial={loaded.initial}
        serverQuote={serverQuote}
        feasibility={feasible.data ?? null}
      />
    </>
  );
}
