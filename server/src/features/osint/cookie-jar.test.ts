import { describe, expect, it } from 'vitest';
import { asksToReload, createCookieJar } from './cookie-jar.ts';

/** Issue 28: interstitials that set a cookie and ask for the page again pass on one reload with it. */

describe('the per-check cookie jar', () => {
  it('keeps name=value of each Set-Cookie (an Expires with a comma included), deletions drop one', () => {
    const jar = createCookieJar();
    jar.take([
      'TCK=abc123; expires=Thu, 31-Dec-37 23:55:55 GMT; path=/',
      'incap_ses_1_2=xyz; path=/',
      'bad name=1',
    ]);
    expect(jar.header()).toBe('TCK=abc123; incap_ses_1_2=xyz');
    jar.take(['TCK=; Max-Age=0']);
    expect(jar.header()).toBe('incap_ses_1_2=xyz');
  });
  it('is bounded: at most 16 cookies, none longer than 4096 characters', () => {
    const jar = createCookieJar();
    jar.take(Array.from({ length: 40 }, (_, i) => `c${i}=v`));
    jar.take([`huge=${'x'.repeat(5000)}`]);
    expect(jar.size).toBe(16);
    expect(jar.header()).not.toContain('huge');
  });
});

describe('asksToReload', () => {
  const page = 'https://example.com/users/alice';
  it('a redirect to the same page (an attempt counter added) or a meta refresh to it', () => {
    expect(asksToReload(page, 307, { location: '/users/alice?ckattempt=1' }, '')).toBe(true);
    expect(
      asksToReload(page, 200, {}, '<meta http-equiv="refresh" content="0; url=/users/alice?ckattempt=1">'),
    ).toBe(true);
    expect(asksToReload(page, 200, {}, '<META CONTENT="1" HTTP-EQUIV="Refresh">')).toBe(true);
  });
  it('not a redirect elsewhere, to another host, or a page without a refresh', () => {
    expect(asksToReload(page, 302, { location: '/login?next=/users/alice' }, '')).toBe(false);
    expect(asksToReload(page, 302, { location: 'https://evil.example/users/alice' }, '')).toBe(false);
    expect(asksToReload(page, 200, {}, '<meta http-equiv="refresh" content="0; url=/home">')).toBe(false);
    expect(asksToReload(page, 200, {}, '<html><body>alice</body></html>')).toBe(false);
  });
});
