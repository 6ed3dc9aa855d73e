"use client";
import { useTranslations } from "next-intl";
import { ZipDownloadButton } from "@/components/ui/zip-download-button";

/** Downloads the mission's ZIP through the dashboard proxy, showing bytes received of the exact total. */
export function ExportButton({ missionId }: { missionId: string }) {
  const t = useTranslations("missions.detail");
  return (
    <div className="flex flex-col items-end">
      <ZipDownloadButton
        href={`/dashboard-api/missions/${missionId}/export`}
        label={t("exportZip")}
        progressLabel={t("exportProgress")}
        fallbackName={`${missionId}.zip`}
      />
    </div>
  );
}
