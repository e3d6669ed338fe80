import { describe, expect, it } from 'vitest';
import { connectRateLimitRedis } from './redis-client.ts';

const silentLog = { debug: () => {}, info: () => {}, warn: () => {} } as unknown as Parameters<
  typeof connectRateLimitRedis
>[1]; // only these three are called

describe('rate-limit Redis client', () => {
  it('stops startup with a message naming REDIS_URL when Redis cannot be reached', async () => {
    // Port 1 on loopback refuses at once; no Redis is needed for this test.
    await expect(connectRateLimitRedis('redis://127.0.0.1:1', silentLog)).rejects.toThrow(
      /^REDIS_URL: could not connect to Redis \(.+\)$/,
    );
  });
});
