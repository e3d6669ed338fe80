import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Streams `source` into `file` and returns the bytes' SHA-256 (hex) and size. */
export async function writeHashed(source: Readable, file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const c of chunks) {
        hash.update(c);
        size += c.length;
        yield c;
      }
    },
    createWriteStream(file, { flags: 'wx' }),
  );
  return { sha256: hash.digest('hex'), size };
}

/** A file's SHA-256 (hex) and size. */
export async function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const c of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(c);
    size += c.length;
  }
  return { sha256: hash.digest('hex'), size };
}
