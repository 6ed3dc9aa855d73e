import { useTranslations } from "next-intl";
import { LoadingRows, Skeleton } from "@/components/ui/states";

export default function Loading() {
  const t = useTranslations("webhooks");
  return (
    <>
      <Skeleton className="h-9 w-48" />
      <LoadingRows rows={3} label={t("loading")} />
    </>
  );
}
