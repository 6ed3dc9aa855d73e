// POST /field/api/uploads – starts a resumable (tus) upload: passed on to /api/v1/field/uploads
// with the zoomer's token (lib/field/forward-tus.ts). OPTIONS is tus discovery.
import { forwardTus } from "@/lib/field/forward-tus";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => forwardTus(request);
export const OPTIONS = (request: Request) => forwardTus(request);
