import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import { type BlobReader, crc32cHex, crc32cOf, LocalBlobStore } from '../blob-store/index.ts';
import { ChunkBufferPool } from './buffer-pool.ts';
import { DOWNLOAD_BUFFER_BYTES, sendDirect } from './direct-send.ts';

/** Three and a bit 1 MiB pieces: read direct, several reads in flight. */
const data = randomBytes(3 * 1024 * 1024 + 4321);
const check = { size: data.length, crc32c: crc32cHex(crc32cOf(data)), sha256: null };

let root: string;
let store: LocalBlobStore;
let blobId: string;
let app: FastifyInstance;
let pool: ChunkBufferPool;
/** While set, every read waits for it (a slow disk under the download). */
let gate: Promise<void> | null;
let readsStarted: number;
/** Resolves when the route's response closes (finished or cut off). */
let closed: Promise<void>;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'guildhall-direct-send-'));
  store = new LocalBlobStore(root);
  blobId = await store.put([data]);
  pool = new ChunkBufferPool(DOWNLOAD_BUFFER_BYTES, 1, 1);
  gate = null;
  readsStarted = 0;
  app = Fastify();
  app.get('/blob', async (request, reply) => {
    const real = await store.openReader(blobId);
    const reader: BlobReader = {
      read: async (into, position) => {
        readsStarted += 1;
        if (gate) await gate;
        return real.read(into, position);
      },
      close: () => real.close(),
    };
    closed = new Promise((resolve) => reply.raw.once('close', resolve));
    await sendDirect({
      request,
      reply,
      store,
      buffers: pool,
      parts: [{ blobId, start: 0, end: data.length - 1, check }],
      first: reader,
    });
    return reply;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  await app.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const url = () => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/blob`;

describe('sendDirect (downloads from local disk, issue 18)', () => {
  test('sends the chunk exactly, from a pooled buffer that it gives back when the download ends', async () => {
    const res = await fetch(url());
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    await eventually(() => expect(pool.inUse).toBe(0));
    // The same buffer serves the next download.
    expect(Buffer.from(await (await fetch(url())).arrayBuffer()).equals(data)).toBe(true);
  });

  test('with every pooled buffer lent out, a download still sends the exact bytes from its own', async () => {
    const taken = pool.tryAcquire();
    expect(taken).not.toBeNull();
    const res = await fetch(url());
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    expect(pool.inUse).toBe(1);
  });

  test('a client that leaves mid-read does not free the buffer until the reads filling it are over', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => {
      open = resolve;
    });
    const request = http.get(url());
    request.on('error', () => {}); // we cut it ourselves
    await eventually(() => expect(readsStarted).toBeGreaterThan(0));
    request.destroy();
    await closed;
    // Reads still fill the buffer: another download taking it now would get their bytes.
    expect(pool.inUse).toBe(1);
    open();
    await eventually(() => expect(pool.inUse).toBe(0));
  });
});
