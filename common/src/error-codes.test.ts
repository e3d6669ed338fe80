import { describe, expect, it } from 'vitest';
import { ERROR_CODE_NAMES, ERROR_CODES, genericCodeFor, isErrorCode, statusOfCode } from './error-codes.ts';

describe('the error-code catalogue (issue 24: a code is always the same status)', () => {
  it('gives every code one error status and a description', () => {
    for (const code of ERROR_CODE_NAMES) {
      expect(ERROR_CODES[code].status, code).toBeGreaterThanOrEqual(400);
      expect(ERROR_CODES[code].status, code).toBeLessThan(600);
      expect(ERROR_CODES[code].description.length, code).toBeGreaterThan(5);
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
    }
  });

  it("a status's generic code has that status", () => {
    for (const status of [
      400, 401, 403, 404, 408, 409, 410, 412, 413, 415, 416, 429, 460, 499, 500, 502, 503, 507,
    ]) {
      expect(statusOfCode(genericCodeFor(status)), String(status)).toBe(status);
    }
  });

  it('knows its codes and nothing else', () => {
    expect(isErrorCode('NOT_FOUND')).toBe(true);
    expect(isErrorCode('NOT_NOW')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(404)).toBe(false);
  });
});
