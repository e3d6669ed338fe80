// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearApprovedCache,
  findApproved,
  getApprovedUsers,
  readCachedApprovedUsers,
} from './approved-cache.ts';

const LIST = [{ discord_id: '1', username: 'alice', access_level: 'admin' as const }];

describe('approved-users cache (portal-core §9: 5 minutes, forced refresh, fallback copy)', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    clearApprovedCache();
    vi.useFakeTimers({ toFake: ['Date'] });
    fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ success: true, data: LIST }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('serves from memory for 5 minutes, then refetches', async () => {
    await getApprovedUsers();
    await getApprovedUsers();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 5 * 60 * 1000 + 1);
    await getApprovedUsers();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('refetches at once when forced', async () => {
    await getApprovedUsers();
    await getApprovedUsers({ force: true });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('falls back to the stored copy when the server fails', async () => {
    await getApprovedUsers();
    expect(readCachedApprovedUsers()).toEqual(LIST);
    fetchMock.mockImplementation(async () => {
      throw new TypeError('offline');
    });
    expect(await getApprovedUsers({ force: true })).toEqual(LIST);
    expect(findApproved(LIST, 'alice')?.discord_id).toBe('1');
  });
});
