import type { Metadata } from "next";
import { LocationsStep } from "@/components/orders/wizard/locations-step";
import { WizardHeader, loadWizardDraft, wizardMetadata, type SearchParams } from "../load-draft";

export const generateMetadata = (): Promise<Metadata> => wizardMetadata("locations");

export default async function NewOrderLocationsPage({ searchParams }: { searchParams: SearchParams }) {
  const loaded = await loadWizardDraft("locations", searchParams);
  if (!loaded.ok) return loaded.page;
  return (
    <>
      <WizardHeader step="locations" />
      <LocationsStep initial={loaded.initial} />
    </>
  );
}
