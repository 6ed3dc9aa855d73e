// GET /field/api/assignments/:id – one task, with its verification once the photo is checked.
import { fieldFetch } from "@/lib/field/session";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return fieldFetch(`/api/v1/field/assignments/${encodeURIComponent(id)}`);
}
