// The physical-limit baseline of orders-create: a minimal handler that does only what any create
// must do — read the JSON body, validate it with the API's own CreateOrderSchema, and write the
// order, its locations and one event row in ONE transaction, on the same kind of database with
// the same driver as the API (PGlite in a fresh directory of its own, or the same PostgreSQL) —
// then answer 201 with a small JSON body. No authentication, rate limit, idempotency, pricing,
// time-zone lookup or schedule check. Started as a child process by scripts/bench/lib/targets.ts;
// not meant to be run by hand. GET answers 200 (readiness).
import "@/lib/runtime/v8-tuning"; // the service's V8 settings: a baseline runs under the same runtime
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import { openDatabase, type Database } from "@/lib/db/client";
import { events, orderLocations, orders, organisations } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import { CreateOrderSchema } from "@/lib/schemas/order";
import { settleMessageShapes } from "@/lib/http/message-shapes";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "data-dir": { type: "string" },
    "database-url-from-env": { type: "boolean", default: false }, // BENCH_DATABASE_URL
    quote: { type: "string" },
  },
});
const databaseUrl = values["database-url-from-env"] ? process.env.BENCH_DATABASE_URL : undefined;
if (!values.port || !values.quote || (!values["data-dir"] && !databaseUrl)) {
  throw new Error("usage: minimal-create-server.ts --port <n> --quote <file> (--data-dir <dir> | --database-url-from-env, BENCH_DATABASE_URL set)");
}

/** The quote stored with each order: the API's own for the same body (the column is required). */
const quote: unknown = JSON.parse(readFileSync(values.quote, "utf8"));
const ORDER_EXPIRY_MS = 7 * 86_400_000;

const database: Database = databaseUrl
  ? await openDatabase({ kind: "postgres", url: databaseUrl })
  : await openDatabase({ kind: "pglite", dataDir: values["data-dir"] ?? null });
const { db } = database;

// An organisation of its own: on a shared PostgreSQL the API's organisation counts only its orders.
const orgId = createId("org");
await db.insert(organisations).values({ id: orgId, name: "bench minimal handler" });

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function answer(response: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) });
  response.end(text);
}

async function create(request: IncomingMessage, response: ServerResponse): Promise<void> {
  let json: unknown;
  try {
    json = JSON.parse(await readBody(request));
  } catch {
    return answer(response, 400, { error: "malformed JSON" });
  }
  const parsed = CreateOrderSchema.safeParse(json);
  if (!parsed.success) return answer(response, 422, { error: "validation_failed", issues: parsed.error.issues.length });
  const input = parsed.data;
  const id = createId("order");
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.insert(orders).values({
      id,
      orgId,
      clientReference: input.client_reference ?? null,
      category: input.category,
      description: input.description ?? "",
      requirements: input.requirements ?? {},
      recurring: input.recurring?.enabled ? input.recurring : null,
      delivery: {},
      quote,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + ORDER_EXPIRY_MS),
    });
    await tx.insert(orderLocations).values(
      input.locations.map((l, position) => ({
        orderId: id,
        id: l.location_id ?? createId("location"),
        position,
        name: l.name,
        lat: l.coordinates.lat,
        lng: l.coordinates.lng,
        timeZone: "UTC",
        requirements: l.requirements ?? input.requirements ?? {},
      })),
    );
    await tx.insert(events).values({ id: createId("event"), orgId, type: "order.created", data: { order_id: id } });
  });
  answer(response, 201, { id, status: "pending_confirmation" });
}

const server = createServer((request, response) => {
  if (request.method !== "POST") return answer(response, 200, { ok: true });
  create(request, response).catch((error: unknown) => {
    console.error(error);
    if (!response.headersSent) answer(response, 500, { error: "internal" });
  });
});
server.listen(Number(values.port), "0.0.0.0");
// The service's settling requests (lib/http/message-shapes.ts): a baseline runs under the same runtime.
void settleMessageShapes(server, { path: "/" });

process.on("SIGTERM", () => {
  server.close();
  void database.close().finally(() => process.exit(0));
});
