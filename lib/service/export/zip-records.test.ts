import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { archiveBytes, centralHeader, dataDescriptor, endRecords, localHeader, type WrittenEntry } from "./zip-records";

const dir = mkdtempSync(join(tmpdir(), "pm-zip-records-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An archive built from the records the way stored-zip.ts streams them. */
function build(files: { name: string; bytes: Buffer; mtime: Date }[]): Buffer {
  const parts: Buffer[] = [];
  const written: WrittenEntry[] = [];
  let offset = 0;
  for (const file of files) {
    const entry = { name: Buffer.from(file.name), size: file.bytes.length, mtime: file.mtime };
    const header = localHeader(entry);
    const done = { ...entry, crc32: crc32(file.bytes), offset };
    const descriptor = dataDescriptor(done);
    parts.push(header, file.bytes, descriptor);
    written.push(done);
    offset += header.length + file.bytes.length + descriptor.length;
  }
  const central = Buffer.concat(written.map(centralHeader));
  parts.push(central, endRecords({ entryCount: written.length, centralOffset: offset, centralSize: central.length }));
  return Buffer.concat(parts);
}

/** What Python's zipfile reads back: names, sizes, dates, CRC check (testzip) and the bytes' hex. */
function readWithPython(archive: Buffer): { bad: string | null; entries: { name: string; size: number; date: number[]; data: string }[] } {
  const path = join(dir, `a-${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(path, archive);
  const script = `import zipfile,json,sys
z=zipfile.ZipFile(sys.argv[1])
bad=z.testzip()
print(json.dumps({"bad": bad, "entries": [] if bad else [{"name": i.filename, "size": i.file_size, "date": list(i.date_time), "data": z.read(i).hex()} for i in z.infolist()]}))`;
  return JSON.parse(execFileSync("python3", ["-c", script, path]).toString()) as ReturnType<typeof readWithPython>;
}

describe("stored ZIP64 records", () => {
  const files = [
    { name: "images/sub_1/01-img_1.jpg", bytes: Buffer.from("first photo bytes"), mtime: new Date(2026, 10, 25, 13, 45, 30) },
    { name: "images/sub_1/02-img_2.jpg", bytes: Buffer.alloc(70_000, 7), mtime: new Date(2026, 0, 1, 0, 0, 0) },
    { name: "metadata.json", bytes: Buffer.from('{"ok": "ünïcode"}'), mtime: new Date(2026, 10, 25, 13, 45, 31) },
    { name: "empty.txt", bytes: Buffer.alloc(0), mtime: new Date(2026, 10, 25) },
  ];

  it("announces exactly the archive's length", () => {
    expect(archiveBytes(files.map((f) => ({ name: Buffer.from(f.name), size: f.bytes.length })))).toBe(build(files).length);
  });

  it("reads back in a standard reader with the same names, bytes, dates and valid CRCs", () => {
    const read = readWithPython(build(files));
    expect(read.bad).toBeNull();
    expect(read.entries.map((e) => e.name)).toEqual(files.map((f) => f.name));
    expect(read.entries.map((e) => e.data)).toEqual(files.map((f) => f.bytes.toString("hex")));
    expect(read.entries.map((e) => e.size)).toEqual(files.map((f) => f.bytes.length));
    expect(read.entries[0]?.date).toEqual([2026, 11, 25, 13, 45, 30]);
  });

  it("is refused by the reader when a CRC does not match the bytes", () => {
    const archive = build(files.slice(0, 1));
    // Flip one data byte: the CRC recorded no longer matches.
    const dataStart = localHeader({ name: Buffer.from(files[0]?.name ?? ""), size: 0, mtime: new Date() }).length;
    archive[dataStart] = (archive[dataStart] ?? 0) ^ 0xff;
    expect(readWithPython(archive).bad).toBe(files[0]?.name);
  });
});
