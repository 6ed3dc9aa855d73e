// The records of a stored (uncompressed) ZIP archive in ZIP64 form, written as it streams: each
// entry's CRC-32 is known only after its bytes have been sent, so it follows them in a data
// descriptor. Always ZIP64 (sizes and offsets as 64-bit extra fields), so every record has a fixed
// length and the archive's size is known from the names and file sizes alone — before the first
// byte (Content-Length). Readers: APPNOTE 6.3.x, sections 4.3.7–4.3.16 and 4.5.3.

export interface ZipEntryRecord {
  /** UTF-8 entry name. */
  name: Buffer;
  size: number;
  mtime: Date;
}

export interface WrittenEntry extends ZipEntryRecord {
  crc32: number;
  /** Offset of the entry's local header in the archive. */
  offset: number;
}

const LOCAL_HEADER = 30;
const LOCAL_ZIP64_EXTRA = 4 + 16;
const DATA_DESCRIPTOR = 4 + 4 + 16;
const CENTRAL_HEADER = 46;
const CENTRAL_ZIP64_EXTRA = 4 + 24;
const ZIP64_END = 56;
const ZIP64_LOCATOR = 20;
const END = 22;

/** Data descriptor follows the data (bit 3); names are UTF-8 (bit 11). */
const FLAGS = 0x0808;
/** 4.5 — ZIP64 format extensions. */
const VERSION_NEEDED = 45;
/** Made by UNIX (3), spec version 6.3: the external attributes below are a UNIX mode. */
const VERSION_MADE_BY = (3 << 8) | 63;
/** A regular file, rw-rw-r--. */
const EXTERNAL_ATTRIBUTES = (0o100664 << 16) >>> 0;
const MAX32 = 0xffffffff;
const MAX16 = 0xffff;

/** Bytes one entry takes in the archive: local header, data, data descriptor, central header. */
export function entryBytes(entry: Pick<ZipEntryRecord, "name" | "size">): number {
  return LOCAL_HEADER + entry.name.length + LOCAL_ZIP64_EXTRA + entry.size + DATA_DESCRIPTOR + CENTRAL_HEADER + entry.name.length + CENTRAL_ZIP64_EXTRA;
}

/** The archive's exact size. */
export function archiveBytes(entries: Iterable<Pick<ZipEntryRecord, "name" | "size">>): number {
  let total = ZIP64_END + ZIP64_LOCATOR + END;
  for (const entry of entries) total += entryBytes(entry);
  return total;
}

/** MS-DOS date and time, local time as the ZIP convention has it (2-second resolution, 1980–2107). */
function dosDateTime(date: Date): { date: number; time: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
  };
}

export function localHeader(entry: ZipEntryRecord): Buffer {
  const buffer = Buffer.alloc(LOCAL_HEADER + entry.name.length + LOCAL_ZIP64_EXTRA);
  const { date, time } = dosDateTime(entry.mtime);
  buffer.writeUInt32LE(0x04034b50, 0);
  buffer.writeUInt16LE(VERSION_NEEDED, 4);
  buffer.writeUInt16LE(FLAGS, 6);
  buffer.writeUInt16LE(0, 8); // stored
  buffer.writeUInt16LE(time, 10);
  buffer.writeUInt16LE(date, 12);
  buffer.writeUInt32LE(0, 14); // CRC-32: in the data descriptor
  buffer.writeUInt32LE(MAX32, 18); // sizes: in the ZIP64 extra field (zero here; the descriptor has them)
  buffer.writeUInt32LE(MAX32, 22);
  buffer.writeUInt16LE(entry.name.length, 26);
  buffer.writeUInt16LE(LOCAL_ZIP64_EXTRA, 28);
  entry.name.copy(buffer, LOCAL_HEADER);
  const extra = LOCAL_HEADER + entry.name.length;
  buffer.writeUInt16LE(0x0001, extra);
  buffer.writeUInt16LE(16, extra + 2); // two zeroed 64-bit sizes follow
  return buffer;
}

export function dataDescriptor(entry: Pick<WrittenEntry, "crc32" | "size">): Buffer {
  const buffer = Buffer.alloc(DATA_DESCRIPTOR);
  buffer.writeUInt32LE(0x08074b50, 0);
  buffer.writeUInt32LE(entry.crc32, 4);
  buffer.writeBigUInt64LE(BigInt(entry.size), 8); // compressed = uncompressed: stored
  buffer.writeBigUInt64LE(BigInt(entry.size), 16);
  return buffer;
}

export function centralHeader(entry: WrittenEntry): Buffer {
  const buffer = Buffer.alloc(CENTRAL_HEADER + entry.name.length + CENTRAL_ZIP64_EXTRA);
  const { date, time } = dosDateTime(entry.mtime);
  buffer.writeUInt32LE(0x02014b50, 0);
  buffer.writeUInt16LE(VERSION_MADE_BY, 4);
  buffer.writeUInt16LE(VERSION_NEEDED, 6);
  buffer.writeUInt16LE(FLAGS, 8);
  buffer.writeUInt16LE(0, 10);
  buffer.writeUInt16LE(time, 12);
  buffer.writeUInt16LE(date, 14);
  buffer.writeUInt32LE(entry.crc32, 16);
  buffer.writeUInt32LE(MAX32, 20);
  buffer.writeUInt32LE(MAX32, 24);
  buffer.writeUInt16LE(entry.name.length, 28);
  buffer.writeUInt16LE(CENTRAL_ZIP64_EXTRA, 30);
  buffer.writeUInt16LE(0, 32); // comment length
  buffer.writeUInt16LE(0, 34); // disk number
  buffer.writeUInt16LE(0, 36); // internal attributes
  buffer.writeUInt32LE(EXTERNAL_ATTRIBUTES, 38);
  buffer.writeUInt32LE(MAX32, 42); // offset: in the ZIP64 extra field
  entry.name.copy(buffer, CENTRAL_HEADER);
  const extra = CENTRAL_HEADER + entry.name.length;
  buffer.writeUInt16LE(0x0001, extra);
  buffer.writeUInt16LE(24, extra + 2);
  buffer.writeBigUInt64LE(BigInt(entry.size), extra + 4);
  buffer.writeBigUInt64LE(BigInt(entry.size), extra + 12);
  buffer.writeBigUInt64LE(BigInt(entry.offset), extra + 20);
  return buffer;
}

/** ZIP64 end of central directory record, its locator, and the classic end record. */
export function endRecords({ entryCount, centralOffset, centralSize }: { entryCount: number; centralOffset: number; centralSize: number }): Buffer {
  const buffer = Buffer.alloc(ZIP64_END + ZIP64_LOCATOR + END);
  buffer.writeUInt32LE(0x06064b50, 0);
  buffer.writeBigUInt64LE(BigInt(ZIP64_END - 12), 4); // size of the rest of this record
  buffer.writeUInt16LE(VERSION_MADE_BY, 12);
  buffer.writeUInt16LE(VERSION_NEEDED, 14);
  buffer.writeUInt32LE(0, 16); // this disk
  buffer.writeUInt32LE(0, 20); // disk with the central directory
  buffer.writeBigUInt64LE(BigInt(entryCount), 24);
  buffer.writeBigUInt64LE(BigInt(entryCount), 32);
  buffer.writeBigUInt64LE(BigInt(centralSize), 40);
  buffer.writeBigUInt64LE(BigInt(centralOffset), 48);
  const locator = ZIP64_END;
  buffer.writeUInt32LE(0x07064b50, locator);
  buffer.writeUInt32LE(0, locator + 4);
  buffer.writeBigUInt64LE(BigInt(centralOffset + centralSize), locator + 8); // where the ZIP64 end record starts
  buffer.writeUInt32LE(1, locator + 16); // total disks
  const end = ZIP64_END + ZIP64_LOCATOR;
  buffer.writeUInt32LE(0x06054b50, end);
  buffer.writeUInt16LE(0, end + 4);
  buffer.writeUInt16LE(0, end + 6);
  buffer.writeUInt16LE(Math.min(entryCount, MAX16), end + 8);
  buffer.writeUInt16LE(Math.min(entryCount, MAX16), end + 10);
  buffer.writeUInt32LE(Math.min(centralSize, MAX32), end + 12);
  buffer.writeUInt32LE(Math.min(centralOffset, MAX32), end + 16);
  buffer.writeUInt16LE(0, end + 20); // comment length
  return buffer;
}
