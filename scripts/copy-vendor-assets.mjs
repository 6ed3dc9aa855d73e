// Copies browser assets that must be served from our own origin (no CDN) into public/vendor.
import { cpSync, mkdirSync, existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const root = join(dirname(new URL(import.meta.url).pathname), "..");
const out = join(root, "public", "vendor");

const assets = [{ pkg: "swagger-ui-dist", files: ["swagger-ui-bundle.js"], to: "swagger-ui" }];

for (const { pkg, files, to } of assets) {
  let base;
  try {
    base = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    continue; // not installed (e.g. production install without that package)
  }
  mkdirSync(join(out, to), { recursive: true });
  for (const file of files) {
    const src = join(base, file);
    if (existsSync(src)) cpSync(src, join(out, to, basename(file)));
  }
}
