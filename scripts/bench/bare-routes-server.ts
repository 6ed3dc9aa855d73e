// The baseline of api-routes: a bare node:http server answering each route with the bytes the
// real API sent for it (captured beforehand), chosen by method and path (query included), so the
// difference to the service is the service's own work. Started as a child process by
// scripts/bench/api-routes.ts; not meant to be run by hand. Anything else, e.g. GET /, answers 200 `{}`.
import "@/lib/runtime/v8-tuning"; // the service's V8 settings: a baseline runs under the same runtime
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { z } from "zod";
import { settleMessageShapes } from "@/lib/http/message-shapes";

const { values } = parseArgs({ options: { port: { type: "string" }, routes: { type: "string" } } });
if (!values.port || !values.routes) throw new Error("usage: bare-routes-server.ts --port <n> --routes <file.json>");

const Routes = z.array(z.object({ method: z.string(), path: z.string(), contentType: z.string(), bodyBase64: z.string() }));
const answers = new Map(
  Routes.parse(JSON.parse(readFileSync(values.routes, "utf8"))).map((r) => {
    const body = Buffer.from(r.bodyBase64, "base64");
    return [`${r.method} ${r.path}`, { body, headers: { "content-type": r.contentType, "content-length": String(body.length) } }];
  }),
);
const fallback = { body: Buffer.from("{}"), headers: { "content-type": "application/json", "content-length": "2" } };

const server = createServer((request, response) => {
  const answer = answers.get(`${request.method ?? "GET"} ${request.url ?? "/"}`) ?? fallback;
  // A POST's body is read to its end, as any server must before answering on a kept-alive connection.
  request.resume();
  request.on("end", () => {
    response.writeHead(200, answer.headers);
    response.end(answer.body);
  });
});
server.listen(Number(values.port), "0.0.0.0");
// The service's settling requests (lib/http/message-shapes.ts): a baseline runs under the same runtime.
void settleMessageShapes(server, { path: "/" });
