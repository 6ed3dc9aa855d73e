// POST /field/api/assignments/:id/release – give the task back to the pool.
import { fieldFetch } from "@/lib/field/session";

export const dynamic = "force-dynamic";

export async function POST(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return fieldFetch(`/api/v1/field/assignments/${encodeURIComponent(id)}/release`, { method: "POST" });
}
