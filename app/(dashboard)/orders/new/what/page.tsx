import type { Metadata } from "next";
import { WhatStep } from "@/components/orders/wizard/what-step";
import { WizardHeader, loadPrices, loadWizardDraft, wizardMetadata, type SearchParams } from "../load-draft";

export const generateMetadata = (): Promise<Metadata> => wizardMetadata("what");

export default async function NewWhatPage({ searchParams }: { searchParams: SearchParams }) {
  const loaded = await loadWizardDraft("what", searchParams);
  if (!loaded.ok) return loaded.page;
  return (
    <>
      <WizardHeader step="what" />
      <WhatStep key={`${loaded.initial.id}:${loaded.initial.version}`} initial={loaded.initial} prices={await loadPrices(loaded.access)} />
    </>
  );
}
