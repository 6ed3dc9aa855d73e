// A small ZIP reader for asserting on downloaded archives: the central directory (ZIP64 included,
// which the export always uses) and stored or deflated entries. No dependency, no unzip binary.
import { inflateRawSync } from "node:zlib";

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  crc32: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX32 = 0xffffffff;

function findEocd(zip: Buffer): number {
  // The end record is 22 bytes plus a comment of up to 65535 bytes.
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) return i;
  }
  throw new Error("not a ZIP file: no end of central directory record");
}

export function listEntries(zip: Buffer): ZipEntry[] {
  const eocd = findEocd(zip);
  let count = zip.readUInt16LE(eocd + 10);
  let cdOffset = zip.readUInt32LE(eocd + 16);
  const locator = eocd - 20;
  if (locator >= 0 && zip.readUInt32LE(locator) === EOCD64_LOCATOR) {
    const eocd64 = Number(zip.readBigUInt64LE(locator + 8));
    if (zip.readUInt32LE(eocd64) !== EOCD64) throw new Error("broken ZIP64 end record");
    count = Number(zip.readBigUInt64LE(eocd64 + 32));
    cdOffset = Number(zip.readBigUInt64LE(eocd64 + 48));
  }
  const entries: ZipEntry[] = [];
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== CENTRAL) throw new Error(`broken central directory at ${p}`);
    const method = zip.readUInt16LE(p + 10);
    const crc32 = zip.readUInt32LE(p + 16);
    let compressedSize = zip.readUInt32LE(p + 20);
    let size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    let localHeaderOffset = zip.readUInt32LE(p + 42);
    const name = zip.toString("utf8", p + 46, p + 46 + nameLength);
    // ZIP64 extra field (0x0001): the 64-bit values, in this order, for the fields that are 0xffffffff.
    for (let e = p + 46 + nameLength; e < p + 46 + nameLength + extraLength;) {
      const id = zip.readUInt16LE(e);
      const length = zip.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (size === MAX32) {
          size = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (compressedSize === MAX32) {
          compressedSize = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (localHeaderOffset === MAX32) localHeaderOffset = Number(zip.readBigUInt64LE(q));
      }
      e += 4 + length;
    }
    entries.push({ name, method, compressedSize, size, crc32, localHeaderOffset });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export function readEntry(zip: Buffer, entry: ZipEntry): Buffer {
  const p = entry.localHeaderOffset;
  if (zip.readUInt32LE(p) !== LOCAL) throw new Error(`no local header for ${entry.name}`);
  const start = p + 30 + zip.readUInt16LE(p + 26) + zip.readUInt16LE(p + 28);
  const raw = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(raw);
  if (entry.method === 8) return inflateRawSync(raw);
  throw new Error(`${entry.name}: unsupported compression method ${entry.method}`);
}

/** The entries by name, read. */
export function readZip(zip: Buffer): Map<string, Buffer> {
  return new Map(listEntries(zip).map((e) => [e.name, readEntry(zip, e)]));
}
