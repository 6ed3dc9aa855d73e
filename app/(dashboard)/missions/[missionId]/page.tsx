import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import type { OrderMissionBrief } from "@/components/missions/order-mission-brief";
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
  // An order's mission: what it asks for comes from its order, so the page can say it in the reader's language.
  let brief: OrderMissionBrief | null = null;
  if (mission.order_id) {
    const { data: order } = await page.access.api.GET("/api/orders/v1/orders/{id}", { params: { path: { id: mission.order_id } } });
    const location = order?.locations.find((l) => l.location_id === mission.location_id);
    brief = {
      orderId: mission.order_id,
      reference: mission.order_reference,
      location: location ? { name: location.name, time_zone: location.time_zone, requirements: location.requirements } : null,
    };
  }
  return <MissionPageClient initialMission={mission} brief={brief} canEdit={roleAtLeast(page.access.role, "editor")} />;
}
