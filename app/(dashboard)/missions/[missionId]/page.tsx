import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { roleAtLeast } from "@/lib/auth/roles";
import { requirePageAccess } from "@/lib/dashboard/access";
import { MissionPageClient } from "./page-client";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("missions.detail");
  return { title: t("metaTitle") };
}

export default async function MissionPage({ params }: { params: Promise<{ missionId: string }> }) {
  const { missionId } = await params;
  const page = await requirePageAccess("viewer", `/missions/${missionId}`);
  if (!page.allowed) return <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />;
  const { data: mission, response } = await page.access.api.GET("/api/v1/missions/{id}", { params: { path: { id: missionId } } });
  if (response.status === 404 || !mission) notFound();
  return <MissionPageClient initialMission={mission} canEdit={roleAtLeast(page.access.role, "editor")} />;
}
