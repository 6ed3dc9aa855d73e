"use server";
import { cookies } from "next/headers";
import { z } from "zod";
import { env } from "@/lib/env";
import { ACTIVE_ORG_COOKIE } from "@/lib/dashboard/access";
import { dashboardAction } from "@/lib/dashboard/action-client";

// Switches the organisation the dashboard acts for; only to one the user is a member of.
export const switchOrganisation = dashboardAction({
  least: "viewer",
  schema: z.object({ orgId: z.string().min(1).max(100) }),
  handler: async ({ orgId }, access) => {
    if (!access.memberships.some((m) => m.org_id === orgId)) {
      return { ok: false, code: "not_a_member", error: "You are not a member of that organisation." };
    }
    (await cookies()).set(ACTIVE_ORG_COOKIE, orgId, {
      httpOnly: true,
      sameSite: "lax",
      secure: env.PUBLIC_ORIGIN.startsWith("https://"),
      path: "/",
      maxAge: 60 * 60 * 24 * 30,
    });
    return { ok: true, data: { orgId } };
  },
});
