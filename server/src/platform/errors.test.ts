import { describe, expect, it } from 'vitest';
import { codeFor, fail, HttpError } from './errors.ts';

describe('errors by code (issue 24: the status follows from the catalogue)', () => {
  it('fail(code, message) answers the status the catalogue gives the code', () => {
    const e = fail('NOT_FOUND', 'Game not found');
    expect(e).toBeInstanceOf(HttpError);
    expect([e.statusCode, e.code, e.message]).toEqual([404, 'NOT_FOUND', 'Game not found']);
    expect(fail('RATE_LIMITED', 'Slow down', { 'retry-after': '3' }).headers).toEqual({ 'retry-after': '3' });
  });

  it("an error from elsewhere (Fastify's FST_ERR_…) gets the generic code of its status", () => {
    expect(codeFor(400, 'FST_ERR_CTP_INVALID_JSON_BODY')).toBe('BAD_REQUEST');
    expect(codeFor(413, 'FST_ERR_CTP_BODY_TOO_LARGE')).toBe('PAYLOAD_TOO_LARGE');
    expect(codeFor(404, 'NOT_FOUND')).toBe('NOT_FOUND');
    expect(codeFor(404, 'BAD_CURSOR')).toBe('NOT_FOUND');
  });
});
