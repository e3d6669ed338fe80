import { PassThrough, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { ArchiveEntry } from './entries.ts';

/** Opens the bytes of one stored file (called only when its turn in the archive comes). */
export type OpenFile = (fileId: string, size: number) => Promise<Readable>;

/**
 * A ZIP of the entries, streamed: each file is opened only when the archive reaches it and piped through
 * with backpressure, so memory stays at a few buffers whatever the total. Files are stored, not deflated
 * (what members share is mostly compressed already, and storing costs no CPU), which also makes the
 * archive's size known in advance: `size` is for Content-Length. ZIP64 is used where sizes need it.
 */
export function zipStream(
  entries: ArchiveEntry[],
  openFile: OpenFile,
): Promise<{ stream: Readable; size: number }> {
  const zip = new ZipFile();
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  zip.on('error', (err: Error) => out.destroy(err));
  let current: Readable | null = null;
  out.once('close', () => current?.destroy()); // the client left: stop reading the store
  for (const e of entries) {
    if (e.kind === 'folder') {
      zip.addEmptyDirectory(e.path, { mtime: e.mtime });
    } else if (e.size === 0) {
      zip.addBuffer(Buffer.alloc(0), e.path, { mtime: e.mtime, compress: false });
    } else {
      zip.addReadStreamLazy(e.path, { mtime: e.mtime, compress: false, size: e.size }, (cb) => {
        openFile(e.fileId, e.size).then(
          (stream) => {
            // If the reader dies, the archive must fail (a cut-off response), never end as if complete.
            stream.once('error', (err) => out.destroy(err));
            current = stream;
            if (out.destroyed) stream.destroy();
            cb(null, stream);
          },
          (err: Error) => cb(err, undefined as unknown as Readable),
        );
      });
    }
  }
  return new Promise((resolve) => {
    // @types/yazl leaves out the size the callback receives.
    const onSize = (size: number) => {
      zip.outputStream.pipe(out);
      resolve({ stream: out, size });
    };
    zip.end(undefined, onSize as () => void);
  });
}
