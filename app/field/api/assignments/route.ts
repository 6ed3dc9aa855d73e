// GET /field/api/assignments?lat&lng – order tasks near the zoomer (and their own), through the API with the session.
import { fieldFetch } from "@/lib/field/session";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const key of ["lat", "lng", "radius_km", "limit"]) {
    const value = url.searchParams.get(key);
    if (value) query.set(key, value);
  }
  return fieldFetch(`/api/v1/field/assignments?${query.toString()}`);
}
