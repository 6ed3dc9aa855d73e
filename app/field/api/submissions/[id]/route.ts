// GET /field/api/submissions/:id – the zoomer's own submission and its QA verdict.
import { fieldFetch } from "@/lib/field/session";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return fieldFetch(`/api/v1/field/submissions/${encodeURIComponent(id)}`);
}
