// The shared corpus of real camera files (../shared/corpus). Tests that need it skip, with a
// message, on a clone that does not have it.
import { existsSync } from "node:fs";
import { resolve } from "node:path";

// Beside the clone (../shared), or beside the folder of worktrees a clone's branches are checked out in (../../shared).
const CANDIDATES = ["../shared/corpus/exif-samples", "../../shared/corpus/exif-samples"].map((p) => resolve(process.cwd(), p));
export const CORPUS_DIR = CANDIDATES.find((dir) => existsSync(dir)) ?? CANDIDATES[0] ?? "";
export const HAS_CORPUS = existsSync(CORPUS_DIR);
export const CORPUS_SKIP_MESSAGE = `corpus not found at ${CORPUS_DIR}: skipping tests on real camera files`;

export const corpusFile = (relative: string) => resolve(CORPUS_DIR, relative);

if (!HAS_CORPUS) console.warn(CORPUS_SKIP_MESSAGE);
