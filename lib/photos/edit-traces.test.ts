// Edit traces read from real camera files of the shared corpus, and from copies exiftool edited.
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { makePhoto } from "@/lib/demo/make-photo";
import { CORPUS_SKIP_MESSAGE, HAS_CORPUS, corpusFile } from "@/lib/testing/corpus";
import { NO_TRACES, readEditTraces } from "./edit-traces";

const run = promisify(execFile);

describe.skipIf(!HAS_CORPUS)("readEditTraces", () => {
  it("finds nothing in untouched camera files", async () => {
    for (const file of ["jpg/gps/DSCN0010.jpg", "jpg/gps/DSCN0012.jpg", "jpg/mobile/jolla.jpg"]) {
      const traces = await readEditTraces(await readFile(corpusFile(file)));
      expect(traces.editor, file).toBeNull();
      expect(traces.modified_before_capture_s, file).toBeNull();
      expect(traces.maker_notes_missing, file).toBe(false);
      expect(traces.thumbnail_distance ?? 0, file).toBeLessThanOrEqual(4);
    }
  });

  it("names GIMP and the missing Canon maker notes in the corpus' Canon 40D file", async () => {
    const traces = await readEditTraces(await readFile(corpusFile("jpg/Canon_40D.jpg")));
    expect(traces.editor).toMatch(/^GIMP/);
    expect(traces.maker_notes_missing).toBe(true);
  });

  it("sees what exiftool leaves: nothing for a GPS rewrite, its name when it writes XMP, the old clocks when it retimes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pm-traces-"));
    try {
      const original = await readEditTraces(await readFile(corpusFile("jpg/gps/DSCN0010.jpg")));
      const edit = async (args: string[]) => {
        const file = join(dir, "x.jpg");
        await copyFile(corpusFile("jpg/gps/DSCN0010.jpg"), file);
        await run("exiftool", ["-overwrite_original", ...args, file]);
        return readEditTraces(await readFile(file));
      };
      expect(await edit(["-GPSLatitude=43.5", "-GPSLongitude=11.9"])).toEqual(original);
      expect((await edit(["-XMP:Rating=1"])).editor).toMatch(/^ExifTool \(“Image::ExifTool/);
      const retimed = await edit(["-DateTimeOriginal=2026:11:27 12:00:00", "-OffsetTimeOriginal=+00:00"]);
      expect(retimed.modified_before_capture_s).toBeGreaterThan(365 * 86400);
      expect(retimed.gps_clock_offset_h).toBeGreaterThan(365 * 24);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("gives no traces for a file without metadata", async () => {
    expect(await readEditTraces(Buffer.from("not a jpeg"))).toEqual(NO_TRACES);
  });
});

describe("readEditTraces: the writer software", () => {
  it("names Windows Photo Gallery in a file it saved, and nobody in the same photo as the phone wrote it", async () => {
    const spec = { lat: 45.1, lng: 7.6, capturedAt: new Date("2026-11-20T10:00:00Z"), seed: 33 };
    const saved = await readEditTraces(await makePhoto({ ...spec, software: "Microsoft Windows Photo Gallery 6.0.6001.18000" }));
    expect(saved.editor).toBe("Windows Photo Gallery (“Microsoft Windows Photo Gallery 6.0.6001.18000”)");
    expect((await readEditTraces(await makePhoto({ ...spec, software: "HDR+ 1.0.641377693zd" }))).editor).toBeNull();
  });
});

if (!HAS_CORPUS) describe("readEditTraces", () => it.skip(CORPUS_SKIP_MESSAGE, () => undefined));
