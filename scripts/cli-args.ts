// Command-line options for the scripts people run by hand (the operator CLI, the sample photos):
// node:util's parseArgs, strict, plus `--help`/`-h` printing the usage (exit 0), and a usage error
// instead of a stack trace for an unknown option, a missing value or a stray argument (exit 2).
import { parseArgs } from "node:util";

export const USAGE_ERROR_EXIT_CODE = 2;

export interface CliArgsOptions<Name extends string> {
  usage: string;
  /** Options that take a value (`--name value` or `--name=value`). */
  strings: readonly Name[];
  /** Whether words other than options are expected (the operator CLI's command). */
  allowPositionals?: boolean;
  /** Where the text goes and how the process ends; tests pass their own. */
  io?: { out: (text: string) => void; err: (text: string) => void; exit: (code: number) => never };
}

export interface CliArgs<Name extends string> {
  values: Partial<Record<Name, string>>;
  positionals: string[];
}

const processIo = {
  out: (text: string) => void process.stdout.write(text),
  err: (text: string) => void process.stderr.write(text),
  exit: (code: number): never => process.exit(code),
};

/** A one-line reason from node's parse error (its own text tells how to pass "-" as a value). */
function usageError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  const stray = /^Unexpected argument '([^']+)'/.exec(message);
  if (stray) return `unexpected argument ${stray[1]}`;
  return message.split(". ")[0] ?? message;
}

export function parseCliArgs<Name extends string>(
  argv: string[],
  { usage, strings, allowPositionals = false, io = processIo }: CliArgsOptions<Name>,
): CliArgs<Name> {
  const options = Object.fromEntries(strings.map((name) => [name, { type: "string" as const }]));
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, strict: true, allowPositionals, options: { ...options, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    if (argv.includes("--help") || argv.includes("-h")) {
      io.out(`${usage}\n`);
      return io.exit(0);
    }
    io.err(`Usage error: ${usageError(error)}.\n\n${usage}\n`);
    return io.exit(USAGE_ERROR_EXIT_CODE);
  }
  if (parsed.values.help === true) {
    io.out(`${usage}\n`);
    return io.exit(0);
  }
  const values: Partial<Record<Name, string>> = {};
  for (const name of strings) {
    const value = parsed.values[name];
    if (typeof value === "string") values[name] = value;
  }
  return { values, positionals: parsed.positionals };
}
