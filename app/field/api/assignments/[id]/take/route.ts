// POST /field/api/assignments/:id/take – reserve the task for the signed-in zoomer.
import { fieldFetch } from "@/lib/field/session";

export const dynamic = "force-dynamic";

export async function POST(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return fieldFetch(`/api/v1/field/assignments/${encodeURIComponent(id)}/take`, { method: "POST" });
}
