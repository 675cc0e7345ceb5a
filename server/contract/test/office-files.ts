// Office files built in memory for the tests of every part (file types, the
// client, the sandbox, the proxy), so no binary fixture is kept and each
// format is written in one place. Not part of the built package.
import { crc32, deflateRawSync } from 'node:zlib';
import CFB from 'cfb';

/**
 * An OLE2 compound file (written by SheetJS's cfb, an independent writer) with
 * these streams: '/WordDocument' is a stream in the root, '/A/B' stream B in storage A.
 */
export function ole2(streams: Record<string, string | Buffer>): Buffer {
  const container = CFB.utils.cfb_new();
  for (const [path, content] of Object.entries(streams)) CFB.utils.cfb_add(container, path, typeof content === 'string' ? Buffer.from(content, 'latin1') : content);
  // A copy: cfb's buffer carries helper properties of its own.
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/** A zip with its central directory: stored (uncompressed) entries, or deflated ones as Office writes them with `deflate`. */
export function zip(entries: Record<string, string | Buffer>, options: { deflate?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const method = options.deflate === true ? 8 : 0;
  for (const [name, content] of Object.entries(entries)) {
    const plain = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const data = method === 8 ? deflateRawSync(plain) : plain;
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(plain);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(plain.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(plain.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(centrals.reduce((n, b) => n + b.length, 0), 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
