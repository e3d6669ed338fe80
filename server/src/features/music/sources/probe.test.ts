import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ProcessSpawner } from '../../../platform/process/index.ts';
import { MEDIA_JOBS_AT_ONCE, mediaJobsInUse } from '../media-jobs.ts';
import { probeDuration } from './probe.ts';

/** The limit for these probes (the product's is PROBE_TIMEOUT_MS, 5 s; the rule is the same at any limit). */
const LIMIT_MS = 600;

/**
 * Library probes (issue 26): two 22 MB files of 10 h silent Opus once made one search start two full
 * decodes for 22 s. Now a probe reads only the header (or the size and bit rate), at most two run at
 * once in the process, and one that gets no answer is killed at its time limit.
 */
let server: http.Server;
const processes = new ProcessSpawner();
let base = '';
const held: http.ServerResponse[] = [];
beforeAll(async () => {
  // Answers with headers and then never sends a byte: a probe must give up on its own.
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'audio/ogg', 'content-length': String(22 * 1024 * 1024) });
    held.push(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await processes.close();
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

test('probes run at most two at a time and each stops at its time limit, answering "unknown"', async () => {
  const started = performance.now();
  const probes = Array.from({ length: 4 }, (_, i) =>
    probeDuration(processes, 'ffprobe', `${base}/stalled-${i}.ogg`, LIMIT_MS),
  );
  await expect.poll(() => mediaJobsInUse().active).toBe(MEDIA_JOBS_AT_ONCE);
  expect(mediaJobsInUse().waiting).toBe(2);
  expect(await Promise.all(probes)).toEqual([0, 0, 0, 0]);
  const took = performance.now() - started;
  // Two rounds of two, each cut at the limit: not four at once, and not waiting forever.
  expect(took).toBeGreaterThanOrEqual(2 * LIMIT_MS - 50);
  expect(took).toBeLessThan(4 * LIMIT_MS + 2_000);
  expect(mediaJobsInUse().peak).toBe(MEDIA_JOBS_AT_ONCE);
});
