/** A download in progress: the bytes arrive as a stream and are never held in memory by the SDK. */
export interface Download {
  /** The response body; read it once (pipe it to a file, an upload, a hash). */
  body: ReadableStream<Uint8Array>;
  contentType: string | null;
  /** Absent for streamed archives (exports). */
  contentLength: number | null;
  /** From Content-Disposition, when the API names the file. */
  filename: string | null;
}

export function downloadFrom(response: Response): Download {
  if (!response.body) throw new Error("The response has no body to download.");
  const length = response.headers.get("content-length");
  const disposition = response.headers.get("content-disposition") ?? "";
  const filename = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1] ?? /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
  return {
    body: response.body,
    contentType: response.headers.get("content-type"),
    contentLength: length === null ? null : Number(length),
    filename: filename === null ? null : decodeURIComponent(filename),
  };
}
