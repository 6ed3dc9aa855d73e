import { useTranslations } from "next-intl";
import { Skeleton } from "@/components/ui/states";

// Inside the wizard's layout, so the draft it holds survives the wait for the next step.
export default function Loading() {
  const t = useTranslations("wizard.header");
  return (
    <div role="status" aria-label={t("loading")} className="flex flex-col gap-4">
      <Skeleton className="h-9 w-72" />
      <Skeleton className="h-8 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}
