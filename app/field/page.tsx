import { env } from "@/lib/env";
import { fieldToken } from "@/lib/field/session";
import { FieldApp } from "@/components/field/field-app";
import { FieldSignIn } from "@/components/field/field-sign-in";

export const dynamic = "force-dynamic";

export default async function FieldPage() {
  const signedIn = (await fieldToken()) !== null;
  return signedIn ? <FieldApp /> : <FieldSignIn demo={env.DEMO_ENABLED} />;
}
