// The baseline of the API benchmarks: a bare node:http server answering every request with fixed
// bytes (captured from the real API), so the difference to the real service is the service's own
// work: routing, auth, rate limiting, database and serialisation. Started as a child process by
// scripts/bench/lib/targets.ts; not meant to be run by hand.
import "@/lib/runtime/v8-tuning"; // the service's V8 settings: a baseline runs under the same runtime
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { settleMessageShapes } from "@/lib/http/message-shapes";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    body: { type: "string" },
    "content-type": { type: "string" },
    status: { type: "string", default: "200" },
  },
});
if (!values.port || !values.body || !values["content-type"]) {
  throw new Error("usage: bare-server.ts --port <n> --body <file> --content-type <type> [--status <code>]");
}

const body = readFileSync(values.body);
const status = Number(values.status);
// Exactly the entity headers of the real response; node adds Date, Connection and Keep-Alive
// itself, as it does for the real API.
const headers = {
  "content-type": values["content-type"],
  "content-length": String(body.length),
};

const server = createServer((_request, response) => {
  response.writeHead(status, headers);
  response.end(body);
});
server.listen(Number(values.port), "0.0.0.0");
// The service's settling requests (lib/http/message-shapes.ts): a baseline runs under the same runtime.
void settleMessageShapes(server, { path: "/" });
