// The webhook-delivery benchmark on its own, with the flags the shared runner does not have:
//   tsx scripts/bench/webhook-delivery-cli.ts [--events 2000] [--batch 100] [--rate 50]
//       [--seconds 10] [--rounds 5] [--warmup-rounds 1] [--concurrency 8]
//       [--database-url postgres://…] [--profile]
// Same Markdown on stdout and bench-results/webhook-delivery.json as `npm run bench --
// webhook-delivery`; --database-url defaults to TEST_DATABASE_URL. Like the runner, it owns the
// child processes and temp dirs, so every exit path (error, Ctrl-C) removes them.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Supervisor } from "./lib/processes";
import { ROOT } from "./lib/targets";
import { DEFAULT_SETTINGS, formatWebhookDelivery, runWebhookDelivery, type WebhookDeliverySettings } from "./webhook-delivery";

function positiveInteger(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} needs a positive whole number, got "${value}"`);
  return n;
}

function positiveNumber(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number, got "${value}"`);
  return n;
}

function settingsFrom(argv: string[]): WebhookDeliverySettings {
  const { values } = parseArgs({
    args: argv,
    options: {
      events: { type: "string" },
      batch: { type: "string" },
      rate: { type: "string" },
      seconds: { type: "string" },
      rounds: { type: "string" },
      "warmup-rounds": { type: "string" },
      concurrency: { type: "string" },
      "database-url": { type: "string" },
      profile: { type: "boolean", default: false },
    },
  });
  const url = values["database-url"] ?? process.env.TEST_DATABASE_URL;
  if (url !== undefined && url !== "" && !/^postgres(ql)?:\/\//.test(url)) throw new Error("--database-url needs a postgres:// URL");
  return {
    events: positiveInteger(values.events, DEFAULT_SETTINGS.events, "--events"),
    batchSize: positiveInteger(values.batch, DEFAULT_SETTINGS.batchSize, "--batch"),
    rate: positiveNumber(values.rate, DEFAULT_SETTINGS.rate, "--rate"),
    steadySeconds: positiveNumber(values.seconds, 10, "--seconds"),
    rounds: positiveInteger(values.rounds, 5, "--rounds"),
    // 0 allowed: no warm-up.
    warmupRounds: values["warmup-rounds"] === "0" ? 0 : positiveInteger(values["warmup-rounds"], 1, "--warmup-rounds"),
    concurrency: positiveInteger(values.concurrency, DEFAULT_SETTINGS.concurrency, "--concurrency"),
    profile: values.profile,
    ...(url ? { databaseUrl: url } : {}),
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const settings = settingsFrom(argv);
  const supervisor = new Supervisor();
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    void supervisor.cleanup().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("exit", () => supervisor.killAllNow());
  const resultsDir = join(ROOT, "bench-results");
  try {
    const started = new Date().toISOString();
    const results = await runWebhookDelivery({ ...settings, supervisor, resultsDir });
    mkdirSync(resultsDir, { recursive: true });
    const file = join(resultsDir, "webhook-delivery.json");
    const args = argv.map((a) => a.replace(/\/\/[^@/]*@/, "//…@")).map((a) => (/^[\w./=-]+$/.test(a) ? a : JSON.stringify(a)));
    const command = `tsx scripts/bench/webhook-delivery-cli.ts ${args.join(" ")}`.trim();
    writeFileSync(file, `${JSON.stringify({ started, command, ...results }, null, 2)}\n`);
    console.log(`${formatWebhookDelivery(results)}\n\nResults: ${file}`);
  } finally {
    await supervisor.cleanup();
  }
}

main().catch((error: unknown) => {
  const cause = error instanceof Error && error.cause !== undefined ? `\ncaused by: ${String(error.cause)}` : "";
  console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}${cause}`);
  process.exitCode = 1;
});
