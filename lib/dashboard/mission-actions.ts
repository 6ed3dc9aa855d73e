"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { CreateMissionSchema, UpdateMissionSchema } from "@/lib/schemas/mission";
import { dashboardAction, problemResult } from "@/lib/dashboard/action-client";

// POST /api/v1/missions — editors and administrators draw new missions.
export const createMission = dashboardAction({
  least: "editor",
  schema: CreateMissionSchema,
  handler: async (input, access) => {
    const { data, error, response } = await access.api.POST("/api/v1/missions", { body: input });
    if (!data) return problemResult(response.status, error);
    revalidatePath("/missions");
    return { ok: true, data: { id: data.id } };
  },
});

// PATCH /api/v1/missions/{id} — the same fields, on an active mission.
export const updateMission = dashboardAction({
  least: "editor",
  schema: z.object({ id: z.string().min(1).max(64), changes: UpdateMissionSchema }),
  handler: async ({ id, changes }, access) => {
    const { data, error, response } = await access.api.PATCH("/api/v1/missions/{id}", { params: { path: { id } }, body: changes });
    if (!data) return problemResult(response.status, error);
    revalidatePath("/missions");
    revalidatePath(`/missions/${id}`);
    return { ok: true, data: { id: data.id } };
  },
});
