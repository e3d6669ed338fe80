import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch } from './client.ts';

function mockFetch(impl: () => Promise<Response>) {
  vi.stubGlobal('fetch', vi.fn(impl));
}

describe('apiFetch error mapping (portal-core §8)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('uses the message from the response body', async () => {
    mockFetch(async () => new Response(JSON.stringify({ success: false, error: 'Nope' }), { status: 403 }));
    await expect(apiFetch('/api/x', { token: null })).rejects.toMatchObject({ message: 'Nope', status: 403 });
  });
  it('falls back to HTTP {status} without a message', async () => {
    mockFetch(async () => new Response(JSON.stringify({ success: false }), { status: 502 }));
    await expect(apiFetch('/api/x', { token: null })).rejects.toMatchObject({ message: 'HTTP 502' });
  });
  it('says An unexpected error occurred for an unparseable body', async () => {
    mockFetch(async () => new Response('<html>oops', { status: 500 }));
    await expect(apiFetch('/api/x', { token: null })).rejects.toMatchObject({
      message: 'An unexpected error occurred',
    });
  });
  it('names the wait on 429 with Retry-After, generic wording without', async () => {
    mockFetch(async () => new Response('{}', { status: 429, headers: { 'retry-after': '42' } }));
    await expect(apiFetch('/api/x', { token: null })).rejects.toMatchObject({
      message: 'Rate limit exceeded. Please try again after 42 seconds',
    });
    mockFetch(async () => new Response('{}', { status: 429 }));
    await expect(apiFetch('/api/x', { token: null })).rejects.toMatchObject({
      message: 'Rate limit exceeded. Please try again later.',
    });
  });
  it('reports a network failure with status 0', async () => {
    mockFetch(async () => {
      throw new TypeError('fetch failed');
    });
    const err = await apiFetch('/api/x', { token: null }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ message: 'Network error or server unavailable', status: 0 });
  });
});
