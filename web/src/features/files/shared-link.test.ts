import { FILES_TEXTS } from '@guildhall/common';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { classifyFailure, sizeText } from './SharedLinkPage.tsx';

describe('shared-link page states (portal-tools §8)', () => {
  test('AUTH_REQUIRED means Login Required', () => {
    expect(classifyFailure(new ApiError(FILES_TEXTS.sharedAuthRequired, 401, 'AUTH_REQUIRED'))).toEqual({
      kind: 'login',
    });
  });
  test('a 404, or a message containing 404, means File Not Found', () => {
    expect(classifyFailure(new ApiError('Shared file not found', 404, 'NOT_FOUND'))).toEqual({
      kind: 'not-found',
    });
    expect(classifyFailure(new Error('HTTP 404: gone'))).toEqual({ kind: 'not-found' });
  });
  test('a protected link asks for its password before anything else, and says when it was wrong', () => {
    expect(
      classifyFailure(new ApiError('This link is protected by a password', 401, 'SHARE_PASSWORD_REQUIRED')),
    ).toEqual({
      kind: 'password',
      isWrong: false,
    });
    expect(classifyFailure(new ApiError('Wrong password', 403, 'SHARE_PASSWORD_WRONG'))).toEqual({
      kind: 'password',
      isWrong: true,
    });
  });
  test('other messages are shown as they are', () => {
    expect(classifyFailure(new ApiError('Network error or server unavailable', 0))).toEqual({
      kind: 'other',
      message: 'Network error or server unavailable',
    });
  });
  test('an unknown size shows Unknown size', () => {
    expect(sizeText(null)).toBe('Unknown size');
    expect(sizeText(undefined)).toBe('Unknown size');
    expect(sizeText(Number.NaN)).toBe('Unknown size');
    expect(sizeText(2048)).toBe('2 KB');
  });
});
