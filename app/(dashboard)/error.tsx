"use client";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/states";

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("dashboard.error");
  return (
    <ErrorState
      title={t("title")}
      action={
        <Button variant="secondary" size="sm" className="self-start" onClick={reset}>
          {t("retry")}
        </Button>
      }
    >
      {error.digest ? t("reference", { digest: error.digest }) : t("unexpected")}
    </ErrorState>
  );
}
