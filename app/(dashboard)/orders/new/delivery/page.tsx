import type { Metadata } from "next";
import { DeliveryStep } from "@/components/orders/wizard/delivery-step";
import { WizardHeader, loadWizardDraft, wizardMetadata, type SearchParams } from "../load-draft";

export const generateMetadata = (): Promise<Metadata> => wizardMetadata("delivery");

export default async function NewOrderDeliveryPage({ searchParams }: { searchParams: SearchParams }) {
  const loaded = await loadWizardDraft("delivery", searchParams);
  if (!loaded.ok) return loaded.page;
  // Whether deliveries could be signed yet (the secret itself is never read back).
  const { data: secret } = await loaded.access.api.GET("/api/orders/v1/delivery-secret");
  return (
    <>
      <WizardHeader step="delivery" />
      <DeliveryStep initial={loaded.initial} secret={secret ?? null} />
    </>
  );
}
