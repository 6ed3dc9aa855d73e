// Refuses a resumable upload that is not a photo the intake takes (JPEG, HEIC/HEIF) on its first
// bytes (creation-with-upload, or a PATCH at offset 0), with the intake's own rule, instead of after
// the whole file went up: a screenshot (PNG) or a video picked by mistake is the usual case. The bytes read to decide are replayed to the tus handler.
import { ApiError } from "@/lib/service/errors";
import { assertPhotoType } from "@/lib/service/submissions/receive-submission";

/** Enough of a photo's first bytes to tell its type (sniffImageType reads 12). */
const SNIFF_BYTES = 16;

/** Reads a body's first bytes without losing them: the request handed on replays them, then streams the rest. */
async function peekBody(request: Request, bytes: number): Promise<{ head: Uint8Array; request: Request; cancel: () => Promise<void> }> {
  const source = request.body;
  if (!source) return { head: new Uint8Array(0), request, cancel: async () => undefined };
  const reader = source.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let ended = false;
  while (length < bytes && !ended) {
    const next = await reader.read();
    if (next.done) ended = true;
    else {
      chunks.push(next.value);
      length += next.value.length;
    }
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (ended) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const init: RequestInit & { duplex: "half" } = { method: request.method, headers: request.headers, body, duplex: "half" };
  return { head: new Uint8Array(Buffer.concat(chunks)), request: new Request(request.url, init), cancel: () => reader.cancel().catch(() => undefined) };
}

/** The photo's first bytes, when this request carries them: a PNG or a video is refused before the rest is sent. */
export async function sniffUploadStart(
  request: Request,
  startsAtZero: boolean,
  filename: string | null,
): Promise<{ request: Request; refused: ApiError | null }> {
  if (!startsAtZero || !request.headers.get("content-type")?.startsWith("application/offset+octet-stream")) return { request, refused: null };
  const peeked = await peekBody(request, SNIFF_BYTES);
  if (peeked.head.length === 0) return { request: peeked.request, refused: null };
  try {
    assertPhotoType(peeked.head, filename ?? "photo");
    return { request: peeked.request, refused: null };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    await peeked.cancel();
    return { request: peeked.request, refused: error };
  }
}
