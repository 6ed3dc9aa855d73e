import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { ForbiddenNotice } from "@/components/ui/forbidden-notice";
import { earlyRequestScript } from "@/components/submissions/early-request";
import { submissionPointsUrl } from "@/components/submissions/queries";
import { roleAtLeast } from "@/lib/auth/roles";
import { requirePageAccess } from "@/lib/dashboard/access";
import { env } from "@/lib/env";
import { MissionPageClient } from "./page-client";

export const metadata: Metadata = { title: "Mission" };

const NO_FILTERS = { statuses: [], from: "", to: "" };

export default async function MissionPage({ params }: { params: Promise<{ missionId: string }> }) {
  const { missionId } = await params;
  const page = await requirePageAccess("viewer", `/missions/${missionId}`);
  if (!page.allowed) return <ForbiddenNotice needed={page.needed} role={page.access.role} orgName={page.access.org.name} />;
  const { data: mission, response } = await page.access.api.GET("/api/v1/missions/{id}", { params: { path: { id: missionId } } });
  if (response.status === 404 || !mission) notFound();
  // The map's points are requested by the HTML itself, in parallel with loading Next's runtime and
  // hydrating, instead of after; the points query adopts that request (components/submissions/early-request.ts).
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: earlyRequestScript(submissionPointsUrl(mission.id, NO_FILTERS)) }} />
      <MissionPageClient initialMission={mission} canEdit={roleAtLeast(page.access.role, "editor")} mapStyleUrl={env.MAP_STYLE_URL ?? null} />
    </>
  );
}
