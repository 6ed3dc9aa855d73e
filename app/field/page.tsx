import { env } from "@/lib/env";
import { fieldSession } from "@/lib/field-server/session";
import { FieldApp } from "@/components/field/field-app";
import { FieldSignIn } from "@/components/field/field-sign-in";

export const dynamic = "force-dynamic";

export default async function FieldPage({ searchParams }: { searchParams: Promise<{ tab?: string | string[] }> }) {
  const session = await fieldSession();
  const { tab } = await searchParams;
  // The session's zoomer and its end go to the page: its outbox sends and shows only their photos.
  return session ? (
    <FieldApp key={session.zoomerId} session={session} initialTab={tab === "tasks" ? "tasks" : "missions"} />
  ) : (
    <FieldSignIn demo={env.DEMO_ENABLED} />
  );
}
