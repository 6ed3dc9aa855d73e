// Resumable photo uploads for the field app: tus 1.0.0 (core, creation, creation-with-upload,
// termination, expiration) at /api/v1/field/uploads, served by @tus/server over the project's
// storage (lib/service/field/field-upload-store.ts). Behind the same zoomer token, rate limit and
// caps as the multipart routes; a finished upload goes through the same intake operation
// (completeFieldUpload → takeInPhotos), exactly once, and answers `Submission-Id`. Every answer is
// the service's: problem+json for refusals (the tus layer's own plain-text ones are translated),
// and the rate-limit headers like any authenticated route.
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Server } from "@tus/server";
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { fieldUploads } from "@/lib/db/schema";
import { log } from "@/lib/log";
import { API_BASE_PATH, type ServiceContext } from "@/lib/service/context";
import { ApiError, notFound, problemResponse, PROBLEM_CONTENT_TYPE } from "@/lib/service/errors";
import { beginFieldUpload } from "@/lib/service/field/begin-field-upload";
import { completeFieldUpload, refuseFieldUpload, refusalError, releaseFieldUploadBytes, type FieldUploadRow } from "@/lib/service/field/complete-field-upload";
import { StorageError } from "@/lib/service/storage/object-store";
import { openUploadCaps } from "@/lib/service/field/open-upload-caps";
import { sniffUploadStart } from "@/lib/service/field/sniff-upload-start";
import { discardFieldUpload } from "@/lib/service/field/sweep-field-uploads";
import { authenticate } from "../../middleware/authenticate";
import type { AppEnv } from "../../types";
import { documentFieldUploadRoutes, PATH, TUS_VERSION } from "./openapi";

function zoomerOf(c: { var: AppEnv["Variables"] }): string {
  const zoomerId = c.var.caller.zoomerId;
  if (!zoomerId) throw new ApiError(403, "insufficient_scope", "Only zoomer credentials can upload photos.");
  return zoomerId;
}

async function ownUpload(ctx: ServiceContext, zoomerId: string, id: string): Promise<FieldUploadRow> {
  const [row] = await ctx.db
    .select()
    .from(fieldUploads)
    .where(and(eq(fieldUploads.id, id), eq(fieldUploads.zoomerId, zoomerId)))
    .limit(1);
  // Another zoomer's upload is as unknown as one that never was.
  if (!row) throw notFound("upload");
  return row;
}

const baseHeaders = (row: FieldUploadRow) => ({ "Tus-Resumable": TUS_VERSION, "Cache-Control": "no-store", "Upload-Length": String(row.uploadLength) });

/** The answer for an upload whose photo was received or refused: its bytes are gone, the row speaks. */
function finishedAnswer(c: Context<AppEnv>, row: FieldUploadRow, status: 200 | 204): Response {
  const refused = refusalError(row.refusal);
  if (refused) return problemResponse(refused, c.req.path, { "Tus-Resumable": TUS_VERSION });
  return new Response(null, { status, headers: { ...baseHeaders(row), "Upload-Offset": String(row.uploadLength), "Submission-Id": row.submissionId ?? "" } });
}

/** The stable codes of the tus layer's own refusals (it answers them as plain text). */
const TUS_PROBLEM_CODES: Record<number, string> = {
  400: "malformed_request",
  404: "not_found",
  409: "upload_offset_mismatch",
  410: "upload_expired",
  413: "file_too_large",
  503: "storage_unavailable",
};

/**
 * The tus layer's plain-text refusals as problem+json, like every other answer of the service. Its
 * text names no path or key (unexpected failures are logged by onResponseError and answered
 * without their message).
 */
async function asProblem(response: Response, instance: string): Promise<Response> {
  if (response.status < 400 || response.headers.get("content-type")?.startsWith(PROBLEM_CONTENT_TYPE)) return response;
  const code = TUS_PROBLEM_CODES[response.status];
  const text = (await response.text()).trim();
  const error = code
    ? new ApiError(response.status, code, text || "The upload could not be continued.")
    : new ApiError(500, "internal_error", "The upload failed on our side; try again.");
  return problemResponse(error, instance, { "Tus-Resumable": TUS_VERSION });
}

/**
 * What @tus/server would refuse in its own words (a 403 for a PATCH without Upload-Offset), refused
 * as documented problems before it sees the request.
 */
function assertTusRequest(c: Context<AppEnv>, { patch }: { patch: boolean }): void {
  if (c.req.header("tus-resumable") !== TUS_VERSION) {
    throw new ApiError(412, "tus_version_unsupported", `Send Tus-Resumable: ${TUS_VERSION}, the tus version this service speaks.`, {
      headers: { "Tus-Version": TUS_VERSION, "Tus-Resumable": TUS_VERSION },
    });
  }
  if (!patch) return;
  if (!/^\d{1,15}$/.test(c.req.header("upload-offset") ?? "")) {
    throw new ApiError(400, "upload_offset_required", "Send Upload-Offset: the offset the bytes start at (HEAD the upload to learn it).", {
      errors: [{ pointer: "Upload-Offset", in: "header", message: "A whole number of bytes." }],
      headers: { "Tus-Resumable": TUS_VERSION },
    });
  }
  if (c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase() !== "application/offset+octet-stream") {
    throw new ApiError(415, "unsupported_media_type", "Send the bytes as Content-Type: application/offset+octet-stream.", {
      headers: { "Tus-Resumable": TUS_VERSION },
    });
  }
}

const filenameOf = (row: FieldUploadRow): string | null => {
  const metadata = row.metadata as { filename?: unknown };
  return typeof metadata.filename === "string" ? metadata.filename : null;
};

export function registerFieldUploadRoutes(app: OpenAPIHono<AppEnv>, ctx: ServiceContext) {
  documentFieldUploadRoutes(app, ctx.config.uploads.maxFileBytes, openUploadCaps(ctx.config.uploads));
  const path = `${API_BASE_PATH}${PATH}`;
  // The id beginFieldUpload chose, handed to tus's namingFunction for the same request.
  const namedIds = new WeakMap<Request, string>();

  // Uploads finished during the request in hand: their bytes are released once tus has answered.
  const finishedIds = new Set<string>();
  const handle = async (request: Request, uploadId: string): Promise<Response> => {
    try {
      return await tus.handleWeb(request);
    } finally {
      if (finishedIds.delete(uploadId)) await releaseFieldUploadBytes(ctx, uploadId);
    }
  };

  // Every authenticated answer carries the request's headers (X-Request-Id, X-RateLimit-*), also
  // those @tus/server makes itself; its plain-text refusals become problems.
  const answer = async (c: Context<AppEnv>, response: Response): Promise<Response> => {
    const answered = await asProblem(response, c.req.path);
    for (const [name, value] of Object.entries(c.get("responseHeaders"))) answered.headers.set(name, value);
    return answered;
  };

  // Finished: the intake answers `Submission-Id`, or the photo's problem as problem+json.
  const finish = async (uploadId: string): Promise<{ status_code?: number; headers?: Record<string, string>; body?: string }> => {
    const [row] = await ctx.db.select().from(fieldUploads).where(eq(fieldUploads.id, uploadId)).limit(1);
    if (!row) throw notFound("upload");
    try {
      const submission = await completeFieldUpload({ ctx, upload: row });
      finishedIds.add(uploadId);
      return { headers: { "Submission-Id": submission.id } };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status < 500) finishedIds.add(uploadId);
      return { status_code: error.status, headers: { "Content-Type": PROBLEM_CONTENT_TYPE }, body: JSON.stringify(error.toBody(`${path}/${uploadId}`)) };
    }
  };

  const tus = new Server({
    path,
    datastore: ctx.fieldUploads.datastore,
    maxSize: ctx.config.uploads.maxFileBytes,
    // URLs handed out are built from the public origin, like every other URL of the service.
    generateUrl: (_req, { id }) => `${ctx.config.publicOrigin}${path}/${id}`,
    namingFunction: (req) => {
      const id = namedIds.get(req);
      if (!id) throw new Error("field upload created without beginFieldUpload");
      return id;
    },
    allowedOrigins: [ctx.config.publicOrigin],
    exposedHeaders: ["Submission-Id", "X-Request-Id"],
    disableTerminationForFinishedUploads: false,
    onUploadFinish: async (_req, upload) => finish(upload.id),
    // The protocol's own refusals (409, 410, 413, …) carry status_code; anything else is ours to log.
    onResponseError: (req, error) => {
      if (!(error instanceof Error) || "status_code" in error) return undefined;
      // Messages name keys and paths: logged, never sent. A store that did not answer is worth a retry
      // (tus clients retry 5xx, then HEAD and resume).
      log.error("field upload failed", { method: req.method, path: new URL(req.url).pathname }, error);
      return error instanceof StorageError ? { status_code: 503, body: "Photo storage did not answer; try again shortly.\n" } : undefined;
    },
  });

  // OPTIONS /field/uploads – tus discovery (no token)
  app.options(PATH, (c) => tus.handleWeb(c.req.raw));

  // POST /field/uploads – tus creation (and creation-with-upload)
  app.post(PATH, authenticate({ scope: "submissions:write" }), async (c) => {
    assertTusRequest(c, { patch: false });
    const { id, filename } = await beginFieldUpload({
      ctx,
      zoomerId: zoomerOf(c),
      metadataHeader: c.req.header("upload-metadata"),
      uploadLengthHeader: c.req.header("upload-length"),
    });
    const sniffed = await sniffUploadStart(c.req.raw, true, filename);
    if (sniffed.refused) {
      await discardFieldUpload(ctx, id);
      throw sniffed.refused;
    }
    namedIds.set(sniffed.request, id);
    const response = await handle(sniffed.request, id);
    // Refused by the protocol layer (more bytes than Upload-Length: 413, a store error): no upload
    // to remember, and nothing it wrote (`upl_…` and its .json) outlives this answer.
    if (response.status >= 400 && !response.headers.get("content-type")?.startsWith(PROBLEM_CONTENT_TYPE)) await discardFieldUpload(ctx, id);
    return answer(c, response);
  });

  // HEAD /field/uploads/:id – the offset to resume from (Hono routes HEAD to GET handlers)
  // GET /field/uploads/:id – the same as JSON, with the submission once received
  app.get(`${PATH}/:id`, authenticate({ scope: "submissions:write" }), async (c) => {
    const row = await ownUpload(ctx, zoomerOf(c), c.req.param("id"));
    const finished = row.submissionId !== null || row.refusal !== null;
    if (c.req.method === "HEAD" || c.req.raw.method === "HEAD") {
      assertTusRequest(c, { patch: false });
      if (finished) return answer(c, finishedAnswer(c, row, 200));
      const response = await tus.handleWeb(c.req.raw);
      const offset = response.headers.get("upload-offset");
      // Complete but not received (the final PATCH's answer was lost mid-intake): receive it now.
      if (response.status === 200 && offset === String(row.uploadLength)) {
        const outcome = await finish(row.id);
        if (finishedIds.delete(row.id)) await releaseFieldUploadBytes(ctx, row.id);
        if (outcome.status_code)
          return answer(c, new Response(outcome.body ?? null, { status: outcome.status_code, headers: { "Tus-Resumable": TUS_VERSION, ...outcome.headers } }));
        for (const [name, value] of Object.entries(outcome.headers ?? {})) response.headers.set(name, value);
      }
      return answer(c, response);
    }
    const stored = finished ? null : await ctx.fieldUploads.datastore.getUpload(row.id).catch(() => null);
    const problem = refusalError(row.refusal);
    return c.json(
      {
        id: row.id,
        offset: finished ? (problem ? 0 : row.uploadLength) : (stored?.offset ?? 0),
        length: row.uploadLength,
        status: row.submissionId ? ("received" as const) : problem ? ("refused" as const) : ("uploading" as const),
        submission_id: row.submissionId,
        problem: problem ? { status: problem.status, code: problem.code, detail: problem.message } : null,
        expires_at: row.expiresAt.toISOString(),
      },
      200,
    );
  });

  // PATCH /field/uploads/:id – more bytes; the last one makes the submission
  app.patch(`${PATH}/:id`, authenticate({ scope: "submissions:write" }), async (c) => {
    const row = await ownUpload(ctx, zoomerOf(c), c.req.param("id"));
    assertTusRequest(c, { patch: true });
    if (row.submissionId === null && row.refusal === null) {
      const sniffed = await sniffUploadStart(c.req.raw, c.req.header("upload-offset") === "0", filenameOf(row));
      if (!sniffed.refused) return answer(c, await handle(sniffed.request, row.id));
      await refuseFieldUpload(ctx, row.id, sniffed.refused);
      await releaseFieldUploadBytes(ctx, row.id);
      return answer(c, problemResponse(sniffed.refused, c.req.path, { "Tus-Resumable": TUS_VERSION }));
    }
    // Received already: a repeated final PATCH (its answer was lost) hears the same answer again.
    if (!row.refusal && c.req.header("upload-offset") !== String(row.uploadLength)) {
      throw new ApiError(409, "upload_offset_mismatch", `The upload is complete at ${row.uploadLength} bytes.`, {
        headers: { "Upload-Offset": String(row.uploadLength), "Tus-Resumable": TUS_VERSION },
      });
    }
    return answer(c, finishedAnswer(c, row, 204));
  });

  // DELETE /field/uploads/:id – tus termination
  app.delete(`${PATH}/:id`, authenticate({ scope: "submissions:write" }), async (c) => {
    const row = await ownUpload(ctx, zoomerOf(c), c.req.param("id"));
    assertTusRequest(c, { patch: false });
    if (row.submissionId === null && row.refusal === null) {
      const response = await tus.handleWeb(c.req.raw);
      if (response.status !== 204 && response.status !== 404 && response.status !== 410) return answer(c, response);
    }
    await ctx.db.delete(fieldUploads).where(eq(fieldUploads.id, row.id));
    return answer(c, new Response(null, { status: 204, headers: { "Tus-Resumable": TUS_VERSION } }));
  });
}
