import fs from 'node:fs';

/**
 * Writes that skip the page cache (O_DIRECT) from buffers whose memory starts on a page boundary.
 *
 * Why: an upload's chunks are written once and read rarely, and copying them into the page cache cost
 * 0.2–2.5 kernel CPU-s per GiB depending on where the kernel found free pages (on a VM whose free
 * memory goes back to the host, fresh pages fault in one by one); a direct write hands the buffer to
 * the disk, ≈ 0.08 CPU-s per GiB whatever the machine's memory holds (bench/files, docs/files.md).
 * O_DIRECT needs the buffer's address, the length and the file offset on block boundaries: lengths
 * are padded to a whole page and the file cut back to its size after.
 */

/** Linux's flag; undefined where the platform has none (macOS, Windows): every write is then buffered. */
export const O_DIRECT: number | undefined = fs.constants.O_DIRECT;

/** Alignment asked of addresses, lengths and offsets: a page covers every block size up to 4 KiB. */
export const DIRECT_ALIGN = 4096;

const WASM_PAGE = 64 * 1024;
const pageAligned = new WeakSet<ArrayBufferLike>();

/**
 * A shared buffer of `bytes` that direct writes can use: its memory starts on a page boundary. Only
 * WebAssembly memory is placed by V8 itself, on a page; a plain SharedArrayBuffer comes from malloc,
 * 16 bytes past one. Where that is not possible (no O_DIRECT, a size that is not a whole number of
 * 64 KiB pages, an address-space limit) it is a plain SharedArrayBuffer, which writes buffered.
 */
export function allocateDirectBuffer(bytes: number): SharedArrayBuffer {
  if (O_DIRECT !== undefined && bytes > 0 && bytes % WASM_PAGE === 0) {
    try {
      const pages = bytes / WASM_PAGE;
      // A shared memory's buffer is a SharedArrayBuffer (TypeScript's lib types it as ArrayBuffer).
      const buffer = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true })
        .buffer as unknown as SharedArrayBuffer;
      pageAligned.add(buffer);
      return buffer;
    } catch {
      // RangeError: V8 could not reserve the address space (ulimit -v); a plain buffer still works.
    }
  }
  return new SharedArrayBuffer(bytes);
}

/** Whether the view starts a page into a buffer from `allocateDirectBuffer`. */
function startsOnPage(view: Uint8Array): boolean {
  return pageAligned.has(view.buffer) && view.byteOffset % DIRECT_ALIGN === 0;
}

/**
 * The view widened to a whole number of pages, if a direct write can take it: it starts a page into a
 * buffer from `allocateDirectBuffer` and the buffer has room for the padding (which is only read).
 * Null otherwise.
 */
export function directWritable(view: Uint8Array): Uint8Array | null {
  if (!startsOnPage(view)) return null;
  const padded = Math.ceil(view.length / DIRECT_ALIGN) * DIRECT_ALIGN;
  if (view.byteOffset + padded > view.buffer.byteLength) return null;
  return new Uint8Array(view.buffer, view.byteOffset, padded);
}

/**
 * Whether a direct read can fill the view as it is: on a page, a whole number of pages long (a read
 * is never padded, so it writes no byte outside the view; it stops short at the end of the file).
 */
export function directReadable(view: Uint8Array, position: number): boolean {
  return startsOnPage(view) && view.length % DIRECT_ALIGN === 0 && position % DIRECT_ALIGN === 0;
}

/**
 * Writes `size` bytes of `padded` (a view from `directWritable`) to a new file at `file`, with O_DIRECT,
 * then cuts the padding off. Rejects with EINVAL when the file system or device refuses direct I/O
 * (the caller then writes buffered); on any failure the caller removes the file.
 */
export async function writeDirect(file: string, padded: Uint8Array, size: number): Promise<void> {
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (O_DIRECT ?? 0);
  const handle = await fs.promises.open(file, flags, 0o666);
  try {
    let written = 0;
    while (written < padded.length) {
      const r = await handle.write(padded, written, padded.length - written, written).catch((e) => {
        // EINVAL after a first short write is that write's odd length, not direct I/O refused.
        throw written > 0
          ? new Error(`direct write of ${file} failed after ${written} bytes`, { cause: e })
          : e;
      });
      if (r.bytesWritten === 0) throw new Error(`direct write of ${file} made no progress`);
      written += r.bytesWritten;
    }
    if (padded.length !== size) await handle.truncate(size);
  } finally {
    await handle.close();
  }
}
