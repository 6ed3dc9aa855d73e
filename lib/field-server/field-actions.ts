"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { env } from "@/lib/env";
import { serviceFetch } from "@/lib/api-client/transport";
import { endFieldSession, startFieldSession } from "@/lib/field-server/session";
import { getRuntime } from "@/lib/runtime/runtime";

export type SignInState = { error?: string; fieldErrors?: Partial<Record<"client_id" | "client_secret", string>> };

const Credentials = z.object({
  client_id: z
    .string()
    .trim()
    .regex(/^cli_[0-9a-z]{26}$/, "A client id looks like cli_ followed by 26 letters and digits."),
  client_secret: z.string().trim().min(10, "Paste the whole secret."),
});

export async function signIn(_previous: SignInState, form: FormData): Promise<SignInState> {
  const parsed = Credentials.safeParse({ client_id: form.get("client_id"), client_secret: form.get("client_secret") });
  if (!parsed.success) {
    const fieldErrors: SignInState["fieldErrors"] = {};
    for (const issue of parsed.error.issues) fieldErrors[issue.path[0] as "client_id" | "client_secret"] = issue.message;
    return { fieldErrors };
  }
  const result = await startFieldSession(parsed.data.client_id, parsed.data.client_secret);
  if (!result.ok) return { error: result.error };
  redirect("/field");
}

/** Demo mode only: a fresh simulated zoomer per visitor, created through the operator API server-side. */
export async function signInAsDemoZoomer(): Promise<SignInState> {
  if (!env.DEMO_ENABLED) return { error: "The demo is not enabled on this server." };
  const { ctx } = await getRuntime({ trustProxy: true });
  const res = await serviceFetch("/api/admin/v1/zoomers", {
    method: "POST",
    headers: { authorization: `Bearer ${ctx.config.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Demo visitor" }),
  });
  if (!res.ok) return { error: "Could not create a demo zoomer." };
  const zoomer = (await res.json()) as { client_id: string; client_secret: string };
  const result = await startFieldSession(zoomer.client_id, zoomer.client_secret);
  if (!result.ok) return { error: result.error };
  redirect("/field");
}

export async function signOut(): Promise<void> {
  await endFieldSession();
  redirect("/field");
}
