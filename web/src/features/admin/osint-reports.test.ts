import type { OsintReport } from '@guildhall/common';
import { describe, expect, it } from 'vitest';
import { otherDisabledSites, reportedSites } from './osint-reports.ts';

const report = (over: Partial<OsintReport>): OsintReport => ({
  id: 'r1xxxxxxxx',
  site: 'GitHub',
  account: 'alice',
  verdict: 'not_found',
  note: null,
  reporter: 'bob',
  createdAt: '2026-11-25T10:00:00.000Z',
  status: 'open',
  ...over,
});

describe('the admin view of OSINT reports (issue 28)', () => {
  it('one row per site: distinct open reporters, the newest open report decided on, open sites first', () => {
    const rows = reportedSites({
      reports: [
        report({
          id: 'old-closed',
          site: 'Flickr',
          status: 'dismissed',
          createdAt: '2026-11-25T12:00:00.000Z',
        }),
        report({ id: 'a-report1', reporter: 'bob' }),
        report({ id: 'a-report2', reporter: 'bob', createdAt: '2026-11-25T11:00:00.000Z', note: 'not me' }),
        report({ id: 'a-report3', reporter: 'carol', createdAt: '2026-11-25T09:00:00.000Z' }),
      ],
      disabledSites: [],
    });
    expect(rows.map((r) => r.site)).toEqual(['GitHub', 'Flickr']);
    expect(rows[0]).toMatchObject({
      reporters: 2,
      open: 3,
      status: 'open',
      decideOn: 'a-report2',
      notes: ['not me'],
    });
    expect(rows[1]).toMatchObject({ reporters: 1, open: 0, status: 'dismissed', decideOn: 'old-closed' });
  });
  it('a disabled site carries its reason; disabled sites nobody reported are listed apart', () => {
    const data = {
      reports: [report({ status: 'accepted' })],
      disabledSites: [
        {
          name: 'GitHub',
          reason: 'A report was accepted by an admin',
          disabledAt: '2026-11-25T10:00:00.000Z',
        },
        { name: 'VK', reason: 'Self-check: known account not found', disabledAt: '2026-11-25T10:00:00.000Z' },
      ],
    };
    expect(reportedSites(data)[0]).toMatchObject({
      status: 'accepted',
      disabledReason: 'A report was accepted by an admin',
    });
    expect(otherDisabledSites(data).map((d) => d.name)).toEqual(['VK']);
  });
});
