import { isPlatformData, type OsintResult } from '@guildhall/common';

/**
 * A search as CSV (issue 28): one row per finding — each source, each platform found, each site that
 * could not be checked, each site left out (disabled) — so a spreadsheet's counts equal the screen's. Fields are quoted, and a cell
 * starting with = + - @ is prefixed with ' so spreadsheets do not run it as a formula (CSV injection).
 */
export function searchToCsv(result: OsintResult): string {
  const rows: string[][] = [['kind', 'source', 'name', 'status', 'risk', 'reason', 'url', 'category']];
  for (const s of result.sources) {
    rows.push(['source', s.name, s.name, s.status, s.risk, s.reason ?? s.riskRule ?? '', s.url ?? '', '']);
    if (!isPlatformData(s.data)) continue;
    for (const p of s.data.sources)
      rows.push(['found', s.name, p.name, 'Found', '', '', p.url, p.category ?? '']);
    for (const u of s.data.unchecked ?? [])
      rows.push(['unknown', s.name, u.name, 'Could not check', '', u.reason, u.url, u.category ?? '']);
    for (const name of s.data.disabled ?? [])
      rows.push([
        'not_scanned',
        s.name,
        name,
        'Disabled',
        '',
        'Disabled by admins or the self-check',
        '',
        '',
      ]);
  }
  return `${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** A file name for the export: type, query (safe characters only) and date. */
export function exportFileName(result: OsintResult, ext: 'json' | 'csv', now: number): string {
  const query = result.query.replace(/[^\w.@-]+/g, '_').slice(0, 60);
  const date = String(result.metadata.searchedAt ?? new Date(now).toISOString()).slice(0, 10);
  return `osint-${result.type}-${query}-${date}.${ext}`;
}
