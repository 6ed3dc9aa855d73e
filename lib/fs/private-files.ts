// Everything under DATA_DIR is the owner's alone: directories 0700, files 0600, whatever the
// process umask. The embedded database writes its files 0666 (PGlite's file system layer sets
// the mode itself), and its WAL holds password hashes and, before they were sealed, secrets; the
// photo store holds GPS-tagged originals. So modes are set explicitly where we create files, and
// checked and fixed at start (and after PGlite has laid out its cluster); a directory another
// user owns is refused, since we could neither fix it nor trust it.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export class DataDirError extends Error {}

const modeText = (mode: number) => (mode & 0o777).toString(8).padStart(3, "0");

/** Creates the directory (and parents) owner-only, or makes an existing one owner-only. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const stats = lstatSync(dir);
  if (!stats.isDirectory()) throw new DataDirError(`${dir} is not a directory.`);
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw new DataDirError(`${dir} belongs to user ${stats.uid}, not to this process (user ${uid}); it would hold secrets. Use a directory this user owns.`);
  }
  if ((stats.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Makes every directory under `root` 0700 and every file 0600 (symlinks are left alone and not
 * followed). Returns how many entries had to be changed.
 */
export function restrictTree(root: string): number {
  let changed = 0;
  const visit = (path: string) => {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats || stats.isSymbolicLink()) return;
    const wanted = stats.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((stats.mode & 0o777) !== wanted) {
      try {
        chmodSync(path, wanted);
      } catch (error) {
        throw new DataDirError(`${path} is mode ${modeText(stats.mode)} and cannot be made owner-only (${(error as Error).message}).`);
      }
      changed += 1;
    }
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return changed;
}
