import { useTranslations } from "next-intl";
import { LoadingRows, Skeleton } from "@/components/ui/states";

export default function Loading() {
  const t = useTranslations("missions.list");
  return (
    <>
      <Skeleton className="h-9 w-48" />
      <LoadingRows rows={6} label={t("loading")} />
    </>
  );
}
