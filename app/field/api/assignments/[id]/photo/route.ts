// POST /field/api/assignments/:id/photo – streams the phone's upload of the task's photo on to the API.
import { fieldFetch } from "@/lib/field/session";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return fieldFetch(`/api/v1/field/assignments/${encodeURIComponent(id)}/photo`, {
    method: "POST",
    headers: { "content-type": request.headers.get("content-type") ?? "" },
    body: request.body,
    // Node's fetch needs this to send a stream as a request body.
    duplex: "half",
  } as RequestInit);
}
