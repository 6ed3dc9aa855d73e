// The shared corpus of real camera files (../shared/corpus). Tests that need it skip, with a
// message, on a clone that does not have it.
import { existsSync } from "node:fs";
import { resolve } from "node:path";

export const CORPUS_DIR = resolve(process.cwd(), "../shared/corpus/exif-samples");
export const HAS_CORPUS = existsSync(CORPUS_DIR);
export const CORPUS_SKIP_MESSAGE = `corpus not found at ${CORPUS_DIR}: skipping tests on real camera files`;

export const corpusFile = (relative: string) => resolve(CORPUS_DIR, relative);

if (!HAS_CORPUS) console.warn(CORPUS_SKIP_MESSAGE);
