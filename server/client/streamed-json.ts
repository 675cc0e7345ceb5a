// A JSON request body whose files are streamed: each StreamedFile in the
// value is written as its base64 text while the body is sent, read from its
// source in chunks, so a request carrying a 10 MB resume holds a few
// chunks in memory, never the file, its base64 or the JSON text.
import { randomBytes } from 'node:crypto';
import { StreamedFile } from './files.ts';

/** A request body that can be sent again: `open()` starts a new stream for each attempt. */
export interface StreamedBody {
  /** Bytes in all, for Content-Length. */
  length: number;
  open(): ReadableStream<Uint8Array>;
}

/** Length of the base64 text of `size` bytes (padded). */
function base64Length(size: number): number {
  return Math.ceil(size / 3) * 4;
}

/**
 * Base64 of a stream of chunks, chunk by chunk: each piece encodes a multiple
 * of 3 bytes, the 1 or 2 left over go with the next chunk, so the pieces join
 * into exactly the base64 of the whole. A chunk is encoded (and its leftover
 * copied) before the next is asked for: a source may reuse its buffer.
 */
export async function* base64Chunks(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  let carry = Buffer.alloc(0);
  for await (const chunk of chunks) {
    const bytes = carry.length === 0 ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.concat([carry, chunk]);
    const whole = bytes.length - (bytes.length % 3);
    if (whole > 0) yield Buffer.from(bytes.subarray(0, whole).toString('base64'), 'latin1');
    carry = Buffer.from(bytes.subarray(whole));
  }
  if (carry.length > 0) yield Buffer.from(carry.toString('base64'), 'latin1');
}

/**
 * Puts a stand-in `{ base64, mime_type }` (a random base64 token) where each
 * StreamedFile is, so the value can be checked against the contract as any
 * other body; `body()` then writes the checked value with each token's place
 * taken by its file's base64. Answers undefined when the value holds no
 * StreamedFile (it is then sent as plain JSON).
 */
export function withStreamedFiles(value: unknown): { standIn: unknown; body(checked: unknown): StreamedBody } | undefined {
  const files = new Map<string, StreamedFile>();
  const replace = (node: unknown): unknown => {
    if (node instanceof StreamedFile) {
      // 24 random bytes are 32 base64 characters: valid base64, and nowhere else in the body.
      const token = randomBytes(24).toString('base64').replaceAll('+', 'A').replaceAll('/', 'B');
      files.set(token, node);
      return { base64: token, mime_type: node.mime_type };
    }
    if (Array.isArray(node)) return node.map(replace);
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, replace(item)]));
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
      const length = pieces.reduce((sum, piece) => sum + (piece instanceof StreamedFile ? base64Length(piece.size) : piece.length), 0);
      return {
        length,
        open: () => {
          const pieceStream = streamPieces(pieces);
          return new ReadableStream<Uint8Array>({
            async pull(controller) {
              const next = await pieceStream.next();
              if (next.done === true) controller.close();
              else controller.enqueue(next.value);
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

async function* streamPieces(pieces: readonly (Buffer | StreamedFile)[]): AsyncGenerator<Uint8Array> {
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
