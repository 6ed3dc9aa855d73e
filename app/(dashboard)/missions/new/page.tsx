import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { PageHeader } from "@/components/ui/page-header";
import { MissionEditor } from "@/components/missions/mission-editor";
import { requirePageAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("missions.editor");
  return { title: t("newTitle") };
}

export default async function NewMissionPage() {
  const page = await requirePageAccess("editor", "/missions/new");
  if (!page.allowed) return <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />;
  const t = await getTranslations("missions.editor");
  return (
    <>
      <PageHeader title={t("newTitle")} description={t("newDescription")} />
      <MissionEditor mode={{ kind: "create" }} geocoder={env.GEOCODER_URL !== undefined} />
    </>
  );
}
