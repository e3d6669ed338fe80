import { OSINT_TEXTS, visiblePlatforms } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import {
  categoriesOf,
  failedResult,
  formatValue,
  groupByReason,
  isFailedResult,
  isWebUrl,
  labelOf,
  listAge,
} from './view.ts';

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
  it('groups the sites that could not be checked by reason, largest first', () => {
    const g = groupByReason([
      { name: 'a', reason: 'Timed out' },
      { name: 'b', reason: 'Asked for a captcha' },
      { name: 'c', reason: 'Timed out' },
    ]);
    expect(g.map((x) => [x.reason, x.items.map((i) => i.name)])).toEqual([
      ['Timed out', ['a', 'c']],
      ['Asked for a captcha', ['b']],
    ]);
  });
  it('categories and the site list age', () => {
    expect(
      categoriesOf([{ category: 'social' }, {}, { category: 'coding' }, { category: 'social' }]),
    ).toEqual(['coding', 'social']);
    expect(listAge('2026-08-16', Date.parse('2026-11-25T12:00:00Z'))).toBe('from Aug 16, 2026, 101 days old');
    expect(listAge(null)).toBe('of unknown age');
  });
  it('a failed search is never LOW (§8 source, INCONCLUSIVE overall)', () => {
    expect(failedResult('email', 'a@b.c', 'x').summary.overallRisk).toBe('INCONCLUSIVE');
  });
});
