import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { PageHeader } from "@/components/ui/page-header";
import { NoticeState } from "@/components/ui/states";
import { MissionEditor } from "@/components/missions/mission-editor";
import { requirePageAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";
import { polygonFromApi } from "@/lib/geo/polygon-from-api";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("missions.editor");
  return { title: t("editMetaTitle") };
}

export default async function EditMissionPage({ params }: { params: Promise<{ missionId: string }> }) {
  const { missionId } = await params;
  const page = await requirePageAccess("editor", `/missions/${missionId}/edit`);
  if (!page.allowed) return <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />;
  const { data: mission, response } = await page.access.api.GET("/api/v1/missions/{id}", { params: { path: { id: missionId } } });
  if (response.status === 404 || !mission) notFound();
  const t = await getTranslations("missions.editor");
  // A mission that cannot be edited is named plainly, without the editor's heading and promise.
  const editable = !mission.order_id && mission.status === "active";
  return (
    <>
      <PageHeader title={editable ? t("editTitle", { title: mission.title }) : mission.title} description={editable ? t("editDescription") : undefined} />
      {mission.order_id ? (
        <NoticeState
          title={t("orderMission")}
          action={
            <Link href={`/orders/${mission.order_id}`} className="self-start font-medium underline">
              {t("orderMissionLink")}
            </Link>
          }
        >
          {t("orderMissionHint")}
        </NoticeState>
      ) : mission.status === "active" ? (
        <MissionEditor
          mode={{ kind: "edit", id: mission.id }}
          initial={{ title: mission.title, description: mission.description, required_images: mission.required_images, bounds: polygonFromApi(mission.bounds) }}
          geocoder={env.GEOCODER_URL !== undefined}
        />
      ) : (
        <NoticeState title={t("notEditable")}>{t("notEditableBecause", { status: mission.status })}</NoticeState>
      )}
    </>
  );
}
