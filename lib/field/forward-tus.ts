import "server-only";
// The field page's way to the resumable-upload endpoint: its scripts hold no token (it is in an
// httpOnly cookie), so tus-js-client talks to /field/api/uploads, and these requests are passed
// on to /api/v1/field/uploads with the zoomer's token. The tus headers go both ways, and the
// upload URL the service hands out (Location) is rewritten to this path, so every later HEAD and
// PATCH comes back here too.
import { fieldFetch } from "./session";

export const FIELD_UPLOADS_PATH = "/field/api/uploads";
const SERVICE_PATH = "/api/v1/field/uploads";

const REQUEST_HEADERS = ["tus-resumable", "upload-length", "upload-metadata", "upload-offset", "upload-defer-length", "content-type", "x-request-id"];

export async function forwardTus(request: Request, uploadId?: string): Promise<Response> {
  const headers = new Headers();
  for (const name of REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const hasBody = request.method === "POST" || request.method === "PATCH";
  const init = { method: request.method, headers, ...(hasBody && request.body ? { body: request.body, duplex: "half" } : {}) } as RequestInit;
  const answer = await fieldFetch(uploadId ? `${SERVICE_PATH}/${encodeURIComponent(uploadId)}` : SERVICE_PATH, init);
  const out = new Headers(answer.headers);
  const location = out.get("location");
  if (location) {
    const id = new URL(location, "http://service").pathname.split("/").at(-1) ?? "";
    out.set("location", `${FIELD_UPLOADS_PATH}/${id}`);
  }
  return new Response(request.method === "HEAD" ? null : answer.body, { status: answer.status, headers: out });
}
