/**
 * V8 flags the server runs with (`npm start`, the browser tests and the benchmarks pass them on the
 * node command line; V8 reads them only at start-up).
 *
 * --max-semi-space-size=2: a small young generation. Uploads stream through many short-lived socket
 * buffers; with V8's default they pile up until a costly full collection, and the server's memory grew
 * by ≈ 78 MiB during a 1 GiB upload. With 2 MiB they die in cheap scavenges: ≈ 44 MiB, at the same
 * upload throughput; realtime p95 moves from ≈ 6 to ≈ 8 ms, far under its 25 ms bar (docs/benchmarks.md).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=2'] as const;
