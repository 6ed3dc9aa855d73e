import { env } from "@/lib/env";
import { fieldToken } from "@/lib/field/session";
import { FieldApp } from "@/components/field/field-app";
import { FieldSignIn } from "@/components/field/field-sign-in";

export const dynamic = "force-dynamic";

export default async function FieldPage({ searchParams }: { searchParams: Promise<{ tab?: string | string[] }> }) {
  const signedIn = (await fieldToken()) !== null;
  const { tab } = await searchParams;
  return signedIn ? <FieldApp initialTab={tab === "tasks" ? "tasks" : "missions"} /> : <FieldSignIn demo={env.DEMO_ENABLED} />;
}
