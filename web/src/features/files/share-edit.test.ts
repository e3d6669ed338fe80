import { type FileShare, SHARE_LINK_TEXTS, shareStateOf } from '@guildhall/common';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { classifyFailure } from './SharedLinkPage.tsx';
import { downloadedSoFar, shareChanges } from './ShareEditForm.tsx';
import { shareDownloadsText } from './ShareModal.tsx';
import { localInputValue } from './share-form-parts.tsx';

const share: FileShare = {
  id: 's1',
  url: 'http://x/shared/t',
  token: 't',
  accessLevel: 'user',
  expiresAt: '2030-01-01T10:00:00.000Z',
  createdAt: '2029-01-01T10:00:00.000Z',
  downloadCount: 1,
  hasPassword: true,
  title: 'Photos',
  note: null,
  maxDownloads: null,
  state: 'active',
  updatedAt: null,
  notifyOnDownload: false,
};
const unchanged = {
  accessLevel: share.accessLevel,
  expiry: localInputValue(new Date(share.expiresAt as string)),
  title: 'Photos',
  note: '',
  limit: '',
  passwordChoice: 'keep' as const,
  password: '',
};

describe('the edit share form (issue 45)', () => {
  test('sends nothing for an untouched form', () => {
    expect(shareChanges(share, unchanged)).toEqual({});
  });
  test('sends only what changed: a limit, a cleared expiry and title, a removed password', () => {
    expect(
      shareChanges(share, { ...unchanged, limit: '2', expiry: '', title: ' ', passwordChoice: 'remove' }),
    ).toEqual({ maxDownloads: 2, expiresAt: null, title: null, password: null });
    expect(shareChanges(share, { ...unchanged, passwordChoice: 'set', password: 'new-pass' })).toEqual({
      password: 'new-pass',
    });
  });
  test('asking for download notices is sent only when it changes', () => {
    expect(shareChanges(share, { ...unchanged, notify: false })).toEqual({});
    expect(shareChanges(share, { ...unchanged, notify: true })).toEqual({ notifyOnDownload: true });
  });
});

describe('share states', () => {
  test('expired before limit reached, then active', () => {
    const now = Date.parse('2030-06-01T00:00:00Z');
    expect(shareStateOf({ expiresAt: '2030-01-01T00:00:00Z', maxDownloads: 1, downloadCount: 1 }, now)).toBe(
      'expired',
    );
    expect(shareStateOf({ expiresAt: null, maxDownloads: 2, downloadCount: 2 }, now)).toBe('limit_reached');
    expect(shareStateOf({ expiresAt: null, maxDownloads: 2, downloadCount: 1 }, now)).toBe('active');
  });
  test('the shared page shows a used-up link as such', () => {
    expect(classifyFailure(new ApiError(SHARE_LINK_TEXTS.limitReached, 410, 'SHARE_LIMIT_REACHED'))).toEqual({
      kind: 'limit',
    });
  });
});

describe('download counts in words (Existing Shares, the edit form)', () => {
  test('a count, or the count against the limit, always with the word', () => {
    expect(shareDownloadsText(0, null)).toBe('0 downloads');
    expect(shareDownloadsText(1, null)).toBe('1 download');
    expect(shareDownloadsText(2, 2)).toBe('2 / 2 downloads');
    expect(downloadedSoFar(0)).toBe('Downloaded 0 times so far.');
    expect(downloadedSoFar(1)).toBe('Downloaded once so far.');
  });
});
