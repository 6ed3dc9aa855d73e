"use client";
import { ZipDownloadButton } from "@/components/ui/zip-download-button";

/** Downloads the mission's ZIP through the dashboard proxy, showing bytes received of the exact total. */
export function ExportButton({ missionId }: { missionId: string }) {
  return (
    <div className="flex flex-col items-end">
      <ZipDownloadButton href={`/dashboard-api/missions/${missionId}/export`} label="Export ZIP" progressLabel="Export download" fallbackName={`${missionId}.zip`} />
    </div>
  );
}
