import type { Metadata } from "next";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { PageHeader } from "@/components/ui/page-header";
import { MissionEditor } from "@/components/missions/mission-editor";
import { requirePageAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";

export const metadata: Metadata = { title: "New mission" };

export default async function NewMissionPage() {
  const page = await requirePageAccess("editor", "/missions/new");
  if (!page.allowed) return <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />;
  return (
    <>
      <PageHeader title="New mission" description="Draw the area to photograph, then say how many photos you need." />
      <MissionEditor mode={{ kind: "create" }} geocoder={env.GEOCODER_URL !== undefined} />
    </>
  );
}
