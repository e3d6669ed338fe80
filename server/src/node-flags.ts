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
 * --initial-old-space-size=128: V8 counts buffer memory allocated since the last full collection
 * against the old generation's limit, which for a heap of ≈ 17 MiB is only a few MiB away; every few
 * MiB received then started a full mark of the heap (≈ 30 per 512 MiB, ≈ 0.6 CPU-s). The floor leaves
 * room for the scavenges to free the buffers first: no full collection during an upload. It was 64 MiB
 * until the server's live heap grew to ≈ 50 MiB (the music bot, its sources, role sync): a music seek's
 * short-lived objects, promoted early by the small young generation, then reached the limit and started a
 * mark-compact (5–20 ms in the main thread, incremental steps up to 12 ms) at nearly every seek, and the
 * voice packet due meanwhile went out up to 25 ms late (issue 48: a seek's longest packet gap 43–46 ms
 * with a slow ffmpeg; with 128 MiB one mark-compact in 48 changes and 27 ms). The price: more old garbage
 * may wait for collection; a 1 GiB upload's peak RSS growth 4.5 MiB (4.1 at 64), resting RSS +13.1 MiB
 * after three uploads (+11.3), 216 MiB idle after them (212).
 *
 * Figures: docs/benchmarks.md (files; realtime).
 */
export const SERVER_NODE_FLAGS = [
  '--enable-source-maps',
  '--max-semi-space-size=1',
  '--initial-old-space-size=128',
] as const;

/** The flags as they appear on a command line. */
export const SERVER_NODE_FLAGS_LINE = SERVER_NODE_FLAGS.join(' ');
