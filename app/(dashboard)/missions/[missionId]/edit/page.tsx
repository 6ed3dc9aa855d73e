import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { PageHeader } from "@/components/ui/page-header";
import { ErrorState } from "@/components/ui/states";
import { MissionEditor } from "@/components/missions/mission-editor";
import { requirePageAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";
import { polygonFromApi } from "@/lib/geo/polygon-from-api";

export const metadata: Metadata = { title: "Edit mission" };

export default async function EditMissionPage({ params }: { params: Promise<{ missionId: string }> }) {
  const { missionId } = await params;
  const page = await requirePageAccess("editor", `/missions/${missionId}/edit`);
  if (!page.allowed) return <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />;
  const { data: mission, response } = await page.access.api.GET("/api/v1/missions/{id}", { params: { path: { id: missionId } } });
  if (response.status === 404 || !mission) notFound();
  return (
    <>
      <PageHeader title={`Edit “${mission.title}”`} description="Change the area, the details or the number of photos needed." />
      {mission.status === "active" ? (
        <MissionEditor
          mode={{ kind: "edit", id: mission.id }}
          initial={{ title: mission.title, description: mission.description, required_images: mission.required_images, bounds: polygonFromApi(mission.bounds) }}
          geocoder={env.GEOCODER_URL !== undefined}
        />
      ) : (
        <ErrorState title="This mission can no longer be edited">It is {mission.status}; only active missions change.</ErrorState>
      )}
    </>
  );
}
