// A JSON request body whose files are streamed: each StreamedFile in the
// value is written as its base64 text while the body is sent, read from its
// source in chunks, so a request carrying a 10 MB resume holds a few
// chunks in memory, never the file, its base64 or the JSON text.
import { randomBytes } from 'node:crypto';
import { StreamedFile } from './files.ts';

/** A request body that can be sent again: each call of `chunks()` or `open()` reads it anew, for each attempt. */
export interface StreamedBody {
  /** Bytes in all, for Content-Length. */
  length: number;
  /**
   * The body in chunks, each valid only until the next is asked for: the
   * base64 of a file is encoded into one buffer, reused for every chunk. The
   * writer must be done with a chunk (written, not queued) before it asks for
   * the next; a node:http request says so in its write callback. A delivery
   * then leaves no garbage per chunk, whatever the file weighs.
   */
  chunks(): AsyncGenerator<Buffer>;
  /** The same body for fetch, which cannot tell when a chunk was written: a copy of each chunk. */
  open(): ReadableStream<Uint8Array>;
}

/** Length of the base64 text of `size` bytes (padded). */
function base64Length(size: number): number {
  return Math.ceil(size / 3) * 4;
}

const ALPHABET = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 'latin1');
const PAD = 0x3d;

/**
 * Writes the base64 of bytes[start, end) into `out` from `at`, padded when
 * the length is not a multiple of 3; answers where it ended. Node encodes
 * only into new strings, which a burst of resumes would pile up in the young
 * generation; this writes into a buffer the caller reuses.
 */
function encodeBase64Into(bytes: Uint8Array, start: number, end: number, out: Uint8Array, at: number): number {
  const whole = end - ((end - start) % 3);
  let o = at;
  let i = start;
  for (; i < whole; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o] = ALPHABET[v >>> 18]!;
    out[o + 1] = ALPHABET[(v >>> 12) & 63]!;
    out[o + 2] = ALPHABET[(v >>> 6) & 63]!;
    out[o + 3] = ALPHABET[v & 63]!;
    o += 4;
  }
  if (i < end) {
    const two = i + 1 < end;
    const v = (bytes[i]! << 16) | (two ? bytes[i + 1]! << 8 : 0);
    out[o] = ALPHABET[v >>> 18]!;
    out[o + 1] = ALPHABET[(v >>> 12) & 63]!;
    out[o + 2] = two ? ALPHABET[(v >>> 6) & 63]! : PAD;
    out[o + 3] = PAD;
    o += 4;
  }
  return o;
}

/**
 * Base64 of a stream of chunks, chunk by chunk: each piece encodes a multiple
 * of 3 bytes, the 1 or 2 left over go with the next chunk, so the pieces join
 * into exactly the base64 of the whole. A chunk is encoded (and its leftover
 * kept) before the next is asked for, so a source may reuse its buffer; each
 * piece is written into one output buffer, valid until the next is asked for.
 */
export async function* base64Chunks(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  const carry = new Uint8Array(3);
  let carried = 0;
  let out = Buffer.alloc(0);
  for await (const chunk of chunks) {
    const need = Math.floor((carried + chunk.length) / 3) * 4;
    if (need > out.length) out = Buffer.allocUnsafe(need);
    let i = 0;
    let o = 0;
    if (carried > 0) {
      while (carried < 3 && i < chunk.length) carry[carried++] = chunk[i++]!;
      if (carried < 3) continue;
      o = encodeBase64Into(carry, 0, 3, out, 0);
      carried = 0;
    }
    const whole = i + Math.floor((chunk.length - i) / 3) * 3;
    o = encodeBase64Into(chunk, i, whole, out, o);
    for (let j = whole; j < chunk.length; j++) carry[carried++] = chunk[j]!;
    if (o > 0) yield out.subarray(0, o);
  }
  if (carried > 0) {
    if (out.length < 4) out = Buffer.allocUnsafe(4);
    yield out.subarray(0, encodeBase64Into(carry, 0, carried, out, 0));
  }
}

/**
 * Puts a stand-in `{ base64, mime_type }` (a random base64 token) where each
 * StreamedFile is, so the value can be checked against the contract as any
 * other body; `body()` then writes the checked value with each token's place
 * taken by its file's base64. Answers undefined when the value holds no
 * StreamedFile (it is then sent as plain JSON).
 */
export function withStreamedFiles(
  value: unknown,
): { standIn: unknown; body(checked: unknown): StreamedBody } | undefined {
  const files = new Map<string, StreamedFile>();
  const replace = (node: unknown): unknown => {
    if (node instanceof StreamedFile) {
      // 24 random bytes are 32 base64 characters: valid base64, and nowhere else in the body.
      const token = randomBytes(24).toString('base64').replaceAll('+', 'A').replaceAll('/', 'B');
      files.set(token, node);
      return { base64: token, mime_type: node.mime_type };
    }
    if (Array.isArray(node)) return node.map(replace);
    if (node !== null && typeof node === 'object')
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, replace(item)]));
    return node;
  };
  const standIn = replace(value);
  if (files.size === 0) return undefined;

  return {
    standIn,
    body(checked) {
      // The JSON text split at each token: text, file, text, file, ..., text.
      const text = JSON.stringify(checked);
      const pieces: (Buffer | StreamedFile)[] = [];
      let rest = text;
      for (const [token, file] of files) {
        const at = rest.indexOf(`"${token}"`);
        if (at === -1) throw new Error('a streamed file was dropped from the body by its schema');
        pieces.push(Buffer.from(`${rest.slice(0, at)}"`), file);
        rest = `"${rest.slice(at + token.length + 2)}`;
      }
      pieces.push(Buffer.from(rest));
      const length = pieces.reduce(
        (sum, piece) => sum + (piece instanceof StreamedFile ? base64Length(piece.size) : piece.length),
        0,
      );
      return {
        length,
        chunks: () => streamPieces(pieces),
        open: () => {
          const pieceStream = streamPieces(pieces);
          return new ReadableStream<Uint8Array>({
            async pull(controller) {
              const next = await pieceStream.next();
              if (next.done === true) controller.close();
              else controller.enqueue(Buffer.from(next.value));
            },
            async cancel() {
              // Closes the file being read.
              await pieceStream.return(undefined);
            },
          });
        },
      };
    },
  };
}

async function* streamPieces(pieces: readonly (Buffer | StreamedFile)[]): AsyncGenerator<Buffer> {
  for (const piece of pieces) {
    if (!(piece instanceof StreamedFile)) {
      yield piece;
      continue;
    }
    let read = 0;
    const counted = async function* () {
      for await (const chunk of piece.open()) {
        read += chunk.byteLength;
        yield chunk;
      }
    };
    yield* base64Chunks(counted());
    // A source that changed since its size was taken would send a body of another length than announced.
    if (read !== piece.size) throw new Error(`a streamed file gave ${read} bytes where ${piece.size} were announced`);
  }
}
