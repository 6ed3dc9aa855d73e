// Completes package-lock.json for `npm ci` (npm/cli#9846): the registry this project installs
// from answers 404 for other platforms' optional binaries (@next/swc-darwin-arm64, …), so npm
// leaves them out of the lockfile — and then `npm ci` refuses that same lockfile as out of sync.
// This adds an entry (version, optional, os/cpu) for each such package; npm ci skips them on
// platforms they do not match. Run after `npm install` changes dependencies: npm run lock:fix
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;

function platformOf(name) {
  const n = name.toLowerCase();
  const os = ["darwin", "win32", "android", "freebsd", "openharmony", "sunos", "aix", "netbsd", "openbsd", "linux"].find((o) => n.includes(o));
  const cpu = [
    ["arm64", "arm64"],
    ["aarch64", "arm64"],
    ["x64", "x64"],
    ["ia32", "ia32"],
    ["riscv64", "riscv64"],
    ["ppc64", "ppc64"],
    ["s390x", "s390x"],
    ["loong64", "loong64"],
    ["wasm32", "wasm32"],
    ["arm", "arm"],
  ].find(([k]) => n.includes(k))?.[1];
  return { ...(cpu ? { cpu: [cpu] } : {}), ...(os ? { os: [os] } : {}) };
}

let added = 0;
for (const [location, meta] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = location ? `${location}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    packages[`node_modules/${name}`] = {
      version: String(range).replace(/^[\^~=]/, ""),
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      ...platformOf(name),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b, "en"))));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`fix-lockfile: added ${added} optional platform entr${added === 1 ? "y" : "ies"}`);
