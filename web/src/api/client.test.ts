import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch } from './client.ts';
import { SERVER_FAULT_TEXT, shownServerMessage } from './server-fault.ts';

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

describe('server faults read as a friendly line (issue 17)', () => {
  afterEach(() => vi.unstubAllGlobals());
  const answer = (status: number, body: unknown) =>
    mockFetch(async () => new Response(JSON.stringify(body), { status }));

  it('hides the text of an uncaught fault, with or without the INTERNAL code', async () => {
    answer(500, { success: false, error: 'boom' });
    await expect(apiFetch('/api/x', { token: null })).rejects.toMatchObject({
      message: SERVER_FAULT_TEXT,
      status: 500,
    });
    answer(500, { success: false, error: 'Internal server error', code: 'INTERNAL' });
    await expect(apiFetch('/api/x', { token: null })).rejects.toMatchObject({ message: SERVER_FAULT_TEXT });
    answer(503, { success: false, error: 'Service unavailable' });
    await expect(apiFetch('/api/x', { token: null })).rejects.toMatchObject({ message: SERVER_FAULT_TEXT });
  });
  it('keeps a fault the server reported on purpose (a code other than INTERNAL)', async () => {
    answer(503, { success: false, error: 'Bot is offline', code: 'BOT_OFFLINE' });
    await expect(apiFetch('/api/x', { token: null })).rejects.toMatchObject({
      message: 'Bot is offline',
      code: 'BOT_OFFLINE',
    });
  });
  it('keeps 4xx texts as the server wrote them', async () => {
    answer(400, { success: false, error: 'boom' });
    await expect(apiFetch('/api/x', { token: null })).rejects.toMatchObject({ message: 'boom', status: 400 });
  });
});

describe('shownServerMessage', () => {
  it('maps by status and code alone', () => {
    expect(shownServerMessage(404, 'File Not Found')).toBe('File Not Found');
    expect(shownServerMessage(502, 'ECONNRESET')).toBe(SERVER_FAULT_TEXT);
    expect(shownServerMessage(502, 'x', '')).toBe(SERVER_FAULT_TEXT);
    expect(shownServerMessage(507, 'Storage quota exceeded', 'QUOTA_EXCEEDED')).toBe(
      'Storage quota exceeded',
    );
  });
});
