// The webhook-delivery benchmark on its own, with the flags the shared runner does not have:
//   tsx scripts/bench/webhook-delivery-cli.ts [--events 2000] [--batch 100] [--rate 50]
//       [--seconds 10] [--rounds 5] [--warmup-rounds 1] [--concurrency 8]
//       [--database-url postgres://…] [--profile]
// Same Markdown on stdout and bench-results/webhook-delivery.json as `npm run bench --
// webhook-delivery`; --database-url defaults to TEST_DATABASE_URL. Like the runner, it owns the
// child processes and temp dirs, so every exit path (error, Ctrl-C) removes them.
import "@/lib/runtime/v8-tuning"; // the service's V8 settings: the runtime in this process runs as the service does
import { join } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { reportFailure, withSupervisor, writeResults } from "./lib/benchmark";
import { argsOf, parseFlags, positive, whole } from "./lib/cli";
import { redactUrl } from "./lib/databases";
import { ROOT } from "./lib/targets";
import { DEFAULT_SETTINGS, formatWebhookDelivery, runWebhookDelivery, type WebhookDeliverySettings } from "./webhook-delivery";

const flagsSchema = z.object({
  events: whole("--events").default(DEFAULT_SETTINGS.events),
  batch: whole("--batch").default(DEFAULT_SETTINGS.batchSize),
  rate: positive("--rate").default(DEFAULT_SETTINGS.rate),
  seconds: positive("--seconds").default(10),
  rounds: whole("--rounds").default(5),
  // 0 allowed: no warm-up.
  "warmup-rounds": z.union([z.literal("0").transform(() => 0), whole("--warmup-rounds")]).default(1),
  concurrency: whole("--concurrency").default(DEFAULT_SETTINGS.concurrency),
  "database-url": z
    .string()
    .regex(/^postgres(ql)?:\/\//, "--database-url needs a postgres:// URL")
    .optional(),
  profile: z.boolean().default(false),
});

function settingsFrom(argv: string[]): WebhookDeliverySettings {
  const { values } = parseArgs({
    args: argv,
    options: argsOf(flagsSchema.shape, new Set(["profile"])),
  });
  const envUrl = process.env.TEST_DATABASE_URL;
  const f = parseFlags(flagsSchema, { ...(envUrl ? { "database-url": envUrl } : {}), ...values });
  const url = f["database-url"];
  return {
    events: f.events,
    batchSize: f.batch,
    rate: f.rate,
    steadySeconds: f.seconds,
    rounds: f.rounds,
    warmupRounds: f["warmup-rounds"],
    concurrency: f.concurrency,
    profile: f.profile,
    ...(url ? { databaseUrl: url } : {}),
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const settings = settingsFrom(argv);
  const resultsDir = join(ROOT, "bench-results");
  await withSupervisor(async (supervisor) => {
    const started = new Date().toISOString();
    const results = await runWebhookDelivery({ ...settings, supervisor, resultsDir });
    const args = argv.map(redactUrl).map((a) => (/^[\w./=-]+$/.test(a) ? a : JSON.stringify(a)));
    const command = `tsx scripts/bench/webhook-delivery-cli.ts ${args.join(" ")}`.trim();
    const file = writeResults(resultsDir, "webhook-delivery", { started, command, ...results });
    console.log(`${formatWebhookDelivery(results)}\n\nResults: ${file}`);
  });
}

main().catch(reportFailure);
