/**
 * The transfer engine: how bytes move between HTTP bodies and the blob store, for files, music and
 * backups alike. Uploads: `storeInChunks` cuts a body into 8 MiB chunks in pooled buffers
 * (`ChunkBufferPool`), hashed on worker threads (`HashPool`, one per app, closed by the platform: SHA-256 per file, CRC32C per chunk) while
 * the store writes them. Downloads: `parseRange` (RFC 9110), `sendDirect` (direct reads into pooled,
 * page-aligned buffers, every whole chunk checked on the way out) `verifying` (the check for a
 * streamed chunk) and `readChunk` (a stored chunk read and checked against its row: files, resumable
 * uploads and backups). Business rules (quotas, who may read what) stay in the features.
 */
export { chunkChecker, verifying } from '../blob-store/index.ts';
export { BufferWaitTimeout, ChunkBufferPool } from './buffer-pool.ts';
export { chunkCheck, type RecordedChunk, readChunk } from './chunk-reader.ts';
export { type StoredChunk, storeInChunks, TooLargeError } from './chunker.ts';
export { type ChunkPart, DOWNLOAD_BUFFER_BYTES, type DownloadWatch, sendDirect } from './direct-send.ts';
export { type FileHash, HashPool } from './hash-pool.ts';
export { contentDisposition, parseRange, type RangeRequest } from './range.ts';
