// The tus routes' OpenAPI description (the handlers, in ./index.ts, are plain Hono routes over
// @tus/server: their requests and answers are the tus protocol's, documented here once).
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { OpenUploadCaps } from "@/lib/service/field/open-upload-caps";
import { errorResponses, jsonResponse, problem, rateLimitHeaderDocs, security } from "../../openapi-common";
import type { AppEnv } from "../../types";

export const PATH = "/field/uploads";
export const TUS_VERSION = "1.0.0";
const tags = ["Field"];

const FieldUploadSchema = z
  .object({
    id: z.string().openapi({ example: "upl_06h0…" }),
    offset: z.number().int().openapi({ description: "Bytes the server holds." }),
    length: z.number().int(),
    status: z.enum(["uploading", "received", "refused"]),
    submission_id: z.string().nullable().openapi({ description: "Once received: GET /field/submissions/{id} for the verdict." }),
    problem: z.object({ status: z.number().int(), code: z.string(), detail: z.string() }).nullable().openapi({ description: "Once refused: why." }),
    expires_at: z.string(),
  })
  .openapi("FieldUpload");

const h = (description: string, type: "integer" | "string" = "string") => ({ description, schema: { type } });
const tusHeaders = {
  "Tus-Resumable": h("Always 1.0.0."),
  "Upload-Offset": h("Bytes the server holds.", "integer"),
  "Upload-Expires": h("When an unfinished upload is swept (RFC 9110 date)."),
  "Submission-Id": h("Once the photo is complete and received: its submission (poll GET /field/submissions/{id} for the verdict)."),
};

const METADATA_DESCRIPTION =
  "`key base64(value)` pairs, comma-separated. `target` (required): a mission id (`mission_…`) or a task you hold (`asg_…`); " +
  "`angle`; `filename`; `note`; device evidence: `device_position` = `lat,lng,accuracy_m`, `captured_at` (ISO 8601 with offset), `heading_deg` (0–360).";

/** Answers every tus route (but OPTIONS) may give besides its own: the protocol version, and storage that did not answer. */
const tusErrors = {
  412: problem("Tus-Resumable is missing or not 1.0.0 (`tus_version_unsupported`; Tus-Version names the version served).", {
    "Tus-Version": h("1.0.0."),
    ...rateLimitHeaderDocs,
  }),
  503: problem("Photo storage did not answer (`storage_unavailable`); retry (a tus client HEADs and resumes).", rateLimitHeaderDocs),
};

export function documentFieldUploadRoutes(app: OpenAPIHono<AppEnv>, maxFileBytes: number, caps: OpenUploadCaps) {
  const IdParam = z.object({
    id: z
      .string()
      .max(100)
      .openapi({ param: { name: "id", in: "path" } }),
  });
  const TusResumable = z.literal(TUS_VERSION).openapi({ param: { name: "Tus-Resumable", in: "header" } });
  /** A request header holding a byte count (Upload-Length, Upload-Offset). */
  const byteCountHeader = (name: string, example: string) =>
    z
      .string()
      .max(15)
      .regex(/^\d+$/)
      .openapi({ param: { name, in: "header" }, example });
  const common = { tags, security: security("submissions:write") };
  app.openAPIRegistry.registerPath({
    ...common,
    method: "post",
    path: PATH,
    operationId: "createFieldUpload",
    summary: "Start a resumable photo upload (tus creation, zoomers)",
    description:
      `tus 1.0.0 creation (and creation-with-upload: send the first bytes, or all of them, as \`application/offset+octet-stream\`). ` +
      `Upload-Length is required (at most ${maxFileBytes} bytes; deferred lengths are refused). Upload-Metadata: ${METADATA_DESCRIPTION} ` +
      "The target is checked now (an active mission not belonging to an order, or a task you hold); the photo's type, pixels and EXIF when it is complete. " +
      "A photo completed in this request answers `Submission-Id` (for a photo this zoomer sent to this target before, through either door, the one submission it made). Unfinished uploads expire (Upload-Expires) and are swept. " +
      `Each zoomer may hold at most ${caps.count} unfinished uploads (neither received nor refused nor expired), reserving at most ${caps.bytes} bytes between them ` +
      "(the sum of their Upload-Length): past either cap the creation answers 409 with `code` `too_many_open_uploads` or `upload_quota_exceeded` " +
      "(not the rate limit: finishing or DELETE-ing an upload frees room at once; the detail says how many are open). " +
      "A refused creation keeps nothing of what it sent. " +
      "OPTIONS on this path (no token) is tus discovery: Tus-Version, Tus-Extension, Tus-Max-Size.",
    request: {
      headers: z.object({
        "Tus-Resumable": TusResumable,
        "Upload-Length": byteCountHeader("Upload-Length", "8388608"),
        "Upload-Metadata": z
          .string()
          .max(16 * 1024)
          .openapi({
            param: { name: "Upload-Metadata", in: "header", description: METADATA_DESCRIPTION },
            example: "target bWlzc2lvbl8wNmgw,angle ZnJvbnQ=,filename SU1HXzAwMDEuanBn",
          }),
      }),
      body: { required: false, content: { "application/offset+octet-stream": { schema: z.string().openapi({ format: "binary", maxLength: maxFileBytes }) } } },
    },
    responses: {
      201: { description: "Created; `Location` is the upload's URL.", headers: { Location: h("The upload's URL."), ...tusHeaders, ...rateLimitHeaderDocs } },
      ...errorResponses(400, 404, 409, 413, 415, 422),
      ...tusErrors,
    },
  });
  app.openAPIRegistry.registerPath({
    ...common,
    method: "head",
    path: `${PATH}/{id}`,
    operationId: "headFieldUpload",
    summary: "Where a resumable upload stands (tus, zoomers)",
    description:
      "`Upload-Offset` says where to resume. A complete upload is received here if the final PATCH's answer was lost (`Submission-Id`). Another zoomer's upload is 404.",
    request: { params: IdParam, headers: z.object({ "Tus-Resumable": TusResumable }) },
    responses: {
      200: {
        description: "The upload's offset and length.",
        headers: { ...tusHeaders, "Upload-Length": h("The photo's size.", "integer"), ...rateLimitHeaderDocs },
      },
      // A complete upload received here answers what its final PATCH would have: its refusal, if it was refused.
      ...errorResponses(404, 409, 413, 415, 422),
      ...tusErrors,
      410: problem("The upload expired (`upload_expired`; swept soon).", rateLimitHeaderDocs),
    },
  });
  app.openAPIRegistry.registerPath({
    ...common,
    method: "patch",
    path: `${PATH}/{id}`,
    operationId: "continueFieldUpload",
    summary: "Send more bytes of a resumable upload (tus, zoomers)",
    description:
      "`Upload-Offset` must equal the server's (else 409; missing or not a number: 400 `upload_offset_required`); the body is `application/offset+octet-stream` (else 415). When the last byte arrives the photo goes through the intake of the multipart routes " +
      "(JPEG or HEIC/HEIF by magic bytes, pixel cap from the header, EXIF) and the answer carries `Submission-Id`; a refused photo answers its problem (415, 413, 422, 409) " +
      "to this and every later request. Sending the same photo again (as a new upload or through the multipart routes, even at the same moment), or repeating the final PATCH, " +
      "makes no second submission: `Submission-Id` names the one it made (the key is zoomer + target + the photo's SHA-256).",
    request: {
      params: IdParam,
      headers: z.object({
        "Tus-Resumable": TusResumable,
        "Upload-Offset": byteCountHeader("Upload-Offset", "0"),
      }),
      body: { required: true, content: { "application/offset+octet-stream": { schema: z.string().openapi({ format: "binary", maxLength: maxFileBytes }) } } },
    },
    responses: {
      204: { description: "Bytes written.", headers: { ...tusHeaders, ...rateLimitHeaderDocs } },
      ...errorResponses(400, 404, 409, 413, 415, 422),
      ...tusErrors,
      410: problem("The upload expired (`upload_expired`; swept soon).", rateLimitHeaderDocs),
    },
  });
  app.openAPIRegistry.registerPath({
    ...common,
    method: "delete",
    path: `${PATH}/{id}`,
    operationId: "deleteFieldUpload",
    summary: "Abandon a resumable upload (tus termination, zoomers)",
    description: "Removes the bytes received so far. A submission already made from it stays.",
    request: { params: IdParam, headers: z.object({ "Tus-Resumable": TusResumable }) },
    responses: {
      204: { description: "Gone.", headers: { "Tus-Resumable": tusHeaders["Tus-Resumable"], ...rateLimitHeaderDocs } },
      ...errorResponses(404),
      ...tusErrors,
    },
  });
  app.openAPIRegistry.registerPath({
    ...common,
    method: "get",
    path: `${PATH}/{id}`,
    operationId: "getFieldUpload",
    summary: "A resumable upload as JSON (zoomers)",
    description: "Offset, and once complete the submission it made (or why it was refused): for a client that lost the final answer.",
    request: { params: IdParam },
    responses: { 200: jsonResponse(FieldUploadSchema, "The upload."), ...errorResponses(404) },
  });
}
