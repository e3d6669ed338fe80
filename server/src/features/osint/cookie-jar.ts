/**
 * The cookies one site check was given (issue 28): some anti-bot interstitials only set a cookie and ask
 * the client to load the page again (nginx's testcookie module: Set-Cookie with a 302/307 to the same
 * page, or with a `<meta http-equiv="refresh">`), which any browser passes without running a script.
 * One jar per site check, never shared between sites or searches, bounded in count and size.
 */

const MAX_COOKIES = 16;
const MAX_COOKIE_CHARS = 4096;

export type CookieJar = {
  /** Takes the answer's Set-Cookie headers; returns how many cookies the jar now holds. */
  take(setCookies: readonly string[]): number;
  /** The `Cookie` request header, or undefined when empty. */
  header(): string | undefined;
  readonly size: number;
};

export function createCookieJar(): CookieJar {
  const cookies = new Map<string, string>();
  return {
    take(setCookies) {
      for (const line of setCookies) {
        const [pair = '', ...attributes] = line.split(';');
        const eq = pair.indexOf('=');
        if (eq <= 0 || pair.length > MAX_COOKIE_CHARS) continue;
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        // A cookie set to expire at once is a deletion.
        const deleted = attributes.some((a) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(a));
        if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) continue;
        if (deleted) cookies.delete(name);
        else if (cookies.has(name) || cookies.size < MAX_COOKIES) cookies.set(name, value);
      }
      return cookies.size;
    },
    header() {
      if (cookies.size === 0) return undefined;
      return [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    },
    get size() {
      return cookies.size;
    },
  };
}

/**
 * Whether an answer asks the client to load the same page again: a redirect to the same origin and path
 * (a query such as testcookie's attempt counter may be added), or a meta refresh to it (or to nothing,
 * which reloads the page).
 */
export function asksToReload(
  requested: string,
  status: number,
  headers: Record<string, string>,
  head: string,
): boolean {
  const samePage = (target: string) => {
    try {
      const from = new URL(requested);
      const to = new URL(target, from);
      return to.origin === from.origin && to.pathname === from.pathname;
    } catch {
      return false;
    }
  };
  if (status >= 300 && status < 400) return samePage(headers.location ?? '');
  for (const [tag] of head.matchAll(/<meta\b[^>]*>/gi)) {
    if (!/http-equiv\s*=\s*["']?refresh\b/i.test(tag)) continue;
    const content = /content\s*=\s*(["'])(.*?)\1/i.exec(tag)?.[2] ?? '';
    const url = /^\s*\d+\s*(?:[;,]\s*(?:url\s*=\s*)?(.*))?$/i.exec(content);
    if (!url) return false;
    const target = url[1]?.trim().replace(/^['"]|['"]$/g, '') ?? '';
    return target === '' || samePage(target);
  }
  return false;
}
