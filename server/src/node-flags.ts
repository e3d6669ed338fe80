/**
 * Node flags the server runs with (`npm start`, the browser tests and the benchmarks pass them on the
 * node command line; they are read only at start-up).
 *
 * --enable-source-maps: the production bundle (server/dist) ships its source maps, and with this flag
 * a logged stack trace points into server/src instead of the bundle (server/src/source-maps.test.ts).
 * The maps hold only our own code (server/bundle.ts, trimSourceMap): Node decodes a map whole, and the
 * dependencies' positions cost 60 MB of heap.
 *
 * The two V8 flags are about uploads, which stream through
 * many short-lived 64 KiB socket buffers whose memory lives outside the JS heap.
 *
 * --max-semi-space-size=1: a small young generation, so those buffers die in frequent cheap scavenges
 * instead of piling up: the server's memory grows by ≈ 43 MiB during a 1 GiB upload (≈ 78 MiB with
 * V8's default, 49–70 MiB with 2 MiB).
 *
 * --initial-old-space-size=64: V8 counts buffer memory allocated since the last full collection
 * against the old generation's limit, which for a heap of ≈ 17 MiB is only a few MiB away; every few
 * MiB received then started a full mark of the heap (≈ 30 per 512 MiB, ≈ 0.6 CPU-s). A 64 MiB floor
 * leaves room for the scavenges to free the buffers first: no full collection during an upload. The
 * price is that up to 64 MiB of old garbage may wait for collection.
 *
 * Figures: docs/benchmarks.md (files; realtime).
 */
export const SERVER_NODE_FLAGS = [
  '--enable-source-maps',
  '--max-semi-space-size=1',
  '--initial-old-space-size=64',
] as const;

/** The flags as they appear on a command line. */
export const SERVER_NODE_FLAGS_LINE = SERVER_NODE_FLAGS.join(' ');
