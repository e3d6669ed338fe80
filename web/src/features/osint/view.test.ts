import { OSINT_TEXTS, visiblePlatforms } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { failedResult, formatValue, isFailedResult, isWebUrl, labelOf } from './view.ts';

describe('OSINT view rules', () => {
  it('a failed search becomes an Error source with status Failed (§8)', () => {
    const r = failedResult('email', 'a@b.c', 'Enter an e-mail address');
    expect(r.sources).toEqual([
      expect.objectContaining({
        name: 'Error',
        status: 'Failed',
        data: { error: OSINT_TEXTS.searchFailed, detail: 'Enter an e-mail address' },
      }),
    ]);
    expect(isFailedResult(r)).toBe(true);
    expect(isFailedResult({ ...r, sources: [...r.sources, { ...r.sources[0]!, name: 'Other' }] })).toBe(
      false,
    );
  });
  it('lists the first 5 platforms, then "+N more" (§9)', () => {
    expect(visiblePlatforms([1, 2, 3, 4, 5, 6, 7])).toEqual({ shown: [1, 2, 3, 4, 5], more: 2 });
    expect(visiblePlatforms([1, 2])).toEqual({ shown: [1, 2], more: 0 });
  });
  it('labels and values', () => {
    expect(labelOf('sitesChecked')).toBe('Sites checked');
    expect(formatValue(true)).toBe('Yes');
    expect(formatValue(null)).toBe('—');
    expect(isWebUrl('tel:+1')).toBe(false);
    expect(isWebUrl('https://x.test')).toBe(true);
  });
});
