// HEAD / PATCH / DELETE / GET /field/api/uploads/:id – one resumable (tus) upload, passed on to
// /api/v1/field/uploads/:id with the zoomer's token (lib/field/forward-tus.ts).
import { forwardTus } from "@/lib/field/forward-tus";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

async function handle(request: Request, { params }: Params): Promise<Response> {
  return forwardTus(request, (await params).id);
}

export { handle as HEAD, handle as PATCH, handle as DELETE, handle as GET };
