// Helpers for submission tests: zoomer credentials, multipart uploads, waiting for QA.
import { makePhoto, type PhotoSpec } from "@/lib/demo/make-photo";
import type { ApiResponse, TestClient } from "./client";

export async function createZoomer(api: TestClient): Promise<{ id: string; token: string }> {
  const res = await api.admin<{ id: string; client_id: string; client_secret: string }>("POST", "/zoomers", { name: "Test zoomer" });
  if (res.status !== 201) throw new Error(`createZoomer: ${res.status} ${res.text}`);
  return { id: res.body.id, token: await api.token(res.body) };
}

export interface UploadPart {
  bytes: Uint8Array;
  name?: string;
  type?: string;
}

export async function submitPhotos(
  api: TestClient,
  token: string,
  missionId: string,
  parts: UploadPart[],
  fields: Record<string, string> = {},
  fileField = "photos",
): Promise<ApiResponse<Record<string, unknown>>> {
  const form = new FormData();
  for (const [i, part] of parts.entries()) {
    form.append(fileField, new Blob([new Uint8Array(part.bytes)], { type: part.type ?? "image/jpeg" }), part.name ?? `photo-${i}.jpg`);
  }
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const response = await fetch(`${api.service.url}/api/v1/missions/${missionId}/submissions`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, text };
}

/** A photo taken now inside the square of `square()` (Florence), unless the spec says otherwise. */
export function photo(spec: PhotoSpec = {}): Promise<Buffer> {
  return makePhoto({ lat: 43.7705, lng: 11.2575, accuracyM: 5, directionDeg: 90, altitudeM: 50, capturedAt: new Date(), ...spec });
}

export async function waitForDecision(api: TestClient, token: string, submissionId: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.request<{ status: string; reasons: string[]; images: Record<string, unknown>[] }>("GET", `/api/v1/submissions/${submissionId}`, {
      token,
    });
    if (res.status !== 200) throw new Error(`submission: ${res.status} ${res.text}`);
    if (res.body.status === "approved" || res.body.status === "rejected") return res.body;
    if (Date.now() > deadline) throw new Error(`submission ${submissionId} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
