import type { Metadata } from "next";
import { WhenStep } from "@/components/orders/wizard/when-step";
import { WizardHeader, loadPrices, loadWizardDraft, wizardMetadata, type SearchParams } from "../load-draft";

export const generateMetadata = (): Promise<Metadata> => wizardMetadata("when");

export default async function NewWhenPage({ searchParams }: { searchParams: SearchParams }) {
  const loaded = await loadWizardDraft("when", searchParams);
  if (!loaded.ok) return loaded.page;
  return (
    <>
      <WizardHeader step="when" />
      <WhenStep key={`${loaded.initial.id}:${loaded.initial.version}`} initial={loaded.initial} prices={await loadPrices(loaded.access)} />
    </>
  );
}
