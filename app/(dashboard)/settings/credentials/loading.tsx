import { useTranslations } from "next-intl";
import { LoadingRows, Skeleton } from "@/components/ui/states";

export default function Loading() {
  const t = useTranslations("settings.credentials");
  return (
    <>
      <Skeleton className="h-9 w-56" />
      <LoadingRows rows={4} label={t("loading")} />
    </>
  );
}
