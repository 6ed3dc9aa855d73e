// Summarises a V8 .cpuprofile on its own (lib/profile-summary.ts does the work, as it does for
// `npm run bench -- --profile`):
//   tsx scripts/bench/profile-summary.ts <file.cpuprofile> [top] [last-seconds]
import { pathToFileURL } from "node:url";
import { formatProfile, summariseProfile } from "./lib/profile-summary";

// Only when run directly, not when the runner reads this folder's modules.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, top, lastSeconds] = process.argv.slice(2);
  if (!file) {
    console.error("usage: tsx scripts/bench/profile-summary.ts <file.cpuprofile> [top] [last-seconds]");
    process.exit(2);
  }
  const windowMs = lastSeconds ? Number(lastSeconds) * 1000 : undefined;
  console.log(formatProfile(summariseProfile(file, { top: top ? Number(top) : 25, ...(windowMs ? { windowMs } : {}) })));
}
