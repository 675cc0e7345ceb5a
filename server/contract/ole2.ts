// A bounded look into an OLE2 compound file (the container of .doc, .xls,
// .msi, .msg...): the names of the streams directly in its root storage, which
// say what the file is (a Word 97-2003 document has a WordDocument stream).
// Hand-written rather than a library: the maintained detector plugin for
// file-type trusts the root's class id (any producer can write any id) and the
// full readers parse every sector of the file; this needs a few sectors only.
// Layout (MS-CFB): a 512-byte header; sector n at (n + 1) * sectorSize; the FAT
// chains sectors, its own sectors listed in the header (109) then in DIFAT
// sectors; the directory is a chain of 128-byte entries, entry 0 the root,
// whose children form a binary tree through left/right sibling ids.

import { RESUME_SIGNATURES } from './resume-signatures.ts';

export const OLE2_SIGNATURE = RESUME_SIGNATURES.doc;

/** Hostile files cost at most this many directory sectors read... */
const MAX_DIRECTORY_SECTORS = 128;
/** ...this many DIFAT sectors followed to find one FAT sector (8 cover about 70 MB with 512-byte sectors)... */
const MAX_DIFAT_HOPS = 8;
/** ...and this many directory entries visited in the root's tree. */
const MAX_ROOT_CHILDREN = 1024;

const ENTRY_SIZE = 128;
const HEADER_DIFAT_ENTRIES = 109;
/** Sector ids from here up are markers (end of chain, free...), never sectors. */
const MAX_REGULAR_SECTOR = 0xfffffffa;
/** The "no sibling / no child" directory id. */
const NO_STREAM = 0xffffffff;
const STREAM = 2;

/**
 * Bytes read by offset: a buffer in memory, or a file read a few bytes at a
 * time (a resume on disk is never read whole). `read` answers fewer bytes
 * than asked only past the end.
 */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Uint8Array;
}

export function bufferSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length) };
}

export function isOle2(bytes: Uint8Array): boolean {
  return bytes.length >= OLE2_SIGNATURE.length && OLE2_SIGNATURE.every((byte, i) => bytes[i] === byte);
}

/**
 * The names of the streams directly in the root storage of an OLE2 file, or
 * undefined when its structure is damaged or beyond the bounds above.
 */
export function ole2RootStreams(input: Uint8Array | ByteSource): Set<string> | undefined {
  const source = input instanceof Uint8Array ? bufferSource(input) : input;
  if (source.size < 512) return undefined;
  const header = source.read(0, 512);
  if (!isOle2(header)) return undefined;
  const headerView = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const u32 = (offset: number): number | undefined => {
    if (offset + 4 <= 512) return headerView.getUint32(offset, true);
    const bytes = source.read(offset, 4);
    return bytes.length === 4 ? new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) : undefined;
  };
  // 9 (512-byte sectors, version 3) or 12 (4096, version 4); the byte order mark must be little-endian.
  const shift = headerView.getUint16(30, true);
  if (headerView.getUint16(28, true) !== 0xfffe || (shift !== 9 && shift !== 12)) return undefined;
  const sectorSize = 1 << shift;
  const idsPerSector = sectorSize / 4;
  const sectorOffset = (sector: number) => (sector + 1) * sectorSize;

  /** The FAT entry of a sector: the next sector of its chain. */
  const next = (sector: number): number | undefined => {
    let fatIndex = Math.floor(sector / idsPerSector);
    let fatSector: number | undefined;
    if (fatIndex < HEADER_DIFAT_ENTRIES) fatSector = u32(76 + 4 * fatIndex);
    else {
      fatIndex -= HEADER_DIFAT_ENTRIES;
      // Each DIFAT sector lists idsPerSector - 1 FAT sectors, then the next DIFAT sector.
      let difat = u32(68);
      for (let hops = 0; difat !== undefined && fatIndex >= idsPerSector - 1; hops++) {
        if (hops >= MAX_DIFAT_HOPS || difat >= MAX_REGULAR_SECTOR) return undefined;
        difat = u32(sectorOffset(difat) + 4 * (idsPerSector - 1));
        fatIndex -= idsPerSector - 1;
      }
      if (difat === undefined || difat >= MAX_REGULAR_SECTOR) return undefined;
      fatSector = u32(sectorOffset(difat) + 4 * fatIndex);
    }
    if (fatSector === undefined || fatSector >= MAX_REGULAR_SECTOR) return undefined;
    return u32(sectorOffset(fatSector) + 4 * (sector % idsPerSector));
  };

  // The directory's first sectors, read in order (a looping chain stops at the
  // bound; an entry past it is then out of reach, and the file unreadable).
  const directory: Uint8Array[] = [];
  for (let sector = u32(48); sector !== undefined && sector < MAX_REGULAR_SECTOR; sector = next(sector)) {
    if (sectorOffset(sector) + sectorSize > source.size) return undefined;
    directory.push(source.read(sectorOffset(sector), sectorSize));
    if (directory.length === MAX_DIRECTORY_SECTORS) break;
  }
  const entriesPerSector = sectorSize / ENTRY_SIZE;
  const entry = (id: number): Uint8Array | undefined => {
    const sector = directory[Math.floor(id / entriesPerSector)];
    if (sector === undefined || sector.length < sectorSize) return undefined;
    const at = (id % entriesPerSector) * ENTRY_SIZE;
    return sector.subarray(at, at + ENTRY_SIZE);
  };
  const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  const root = entry(0);
  if (root === undefined || root[66] !== 5) return undefined; // entry 0 must be the root storage
  const names = new Set<string>();
  const seen = new Set<number>();
  const pending = [view(root).getUint32(76, true)]; // the root's child: the top of its children's tree
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (id === NO_STREAM || seen.has(id)) continue;
    const at = entry(id);
    if (at === undefined || seen.size >= MAX_ROOT_CHILDREN) return undefined;
    seen.add(id);
    const fields = view(at);
    // The name: UTF-16LE, its byte length (with the final NUL) at 64, at most 64 bytes.
    const nameBytes = fields.getUint16(64, true);
    if (at[66] === STREAM && nameBytes >= 2 && nameBytes <= 64) {
      names.add(new TextDecoder('utf-16le').decode(at.subarray(0, nameBytes - 2)));
    }
    pending.push(fields.getUint32(68, true), fields.getUint32(72, true));
  }
  return names;
}
