import net from 'node:net';
import { OSINT_HISTORY_TEXTS, OSINT_TEXTS, type OsintType } from '@guildhall/common';
import { fail } from '../../platform/errors.ts';

const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const USERNAME = /^[\p{L}\p{N}._-]{1,64}$/u;
const PERSON_WORD = /^[\p{L}][\p{L}'.-]*$/u;
const PHONE = /^\+?[\d\s().-]{4,32}$/;

/**
 * The query of each type in the one form the sources use, or a 400 naming the expected form.
 * Domains and e-mail domains are names only: an address literal is refused here, an IP is the ip type.
 */
export function normalizeQuery(type: OsintType, query: string): string {
  const q = query.trim();
  // NUL and other control or format characters: refused for every type (PostgreSQL cannot store a NUL,
  // and no address, name or number contains one).
  if (/[\p{Cc}\p{Cf}]/u.test(q)) throw fail('BAD_QUERY', OSINT_HISTORY_TEXTS.badControl);
  switch (type) {
    case 'email': {
      const at = q.lastIndexOf('@');
      const local = q.slice(0, at);
      const domain = toDomain(q.slice(at + 1));
      if (at < 1 || local.length > 64 || /[\s@"<>()[\]\\,;:]/.test(local) || !domain) {
        throw fail('BAD_QUERY', OSINT_TEXTS.badEmail);
      }
      return `${local}@${domain}`;
    }
    case 'phone':
      if (!PHONE.test(q) || !/\d{4}/.test(q.replace(/\D/g, '')))
        throw fail('BAD_QUERY', OSINT_TEXTS.badPhone);
      return q;
    case 'username': {
      const u = q.replace(/^@/, '');
      if (!USERNAME.test(u)) throw fail('BAD_QUERY', OSINT_TEXTS.badUsername);
      return u;
    }
    case 'domain': {
      const d = toDomain(q.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[/?#].*$/, ''));
      if (!d) throw fail('BAD_QUERY', OSINT_TEXTS.badDomain);
      return d;
    }
    case 'ip': {
      const ip = toIp(q);
      if (!ip) throw fail('BAD_QUERY', OSINT_TEXTS.badIp);
      return ip;
    }
    case 'person': {
      const words = q.split(/\s+/);
      if (
        words.length < 2 ||
        words.length > 5 ||
        !words.every((w) => PERSON_WORD.test(w) && w.length <= 40)
      ) {
        throw fail('BAD_QUERY', OSINT_TEXTS.badPerson);
      }
      return words.join(' ');
    }
  }
}

/** A host name in ASCII (IDNs become punycode), lowercased, without a trailing dot; null for anything else. */
function toDomain(input: string): string | null {
  if (!input || /[\s/\\?#@:[\]]/.test(input)) return null;
  let host: string;
  try {
    host = new URL(`http://${input}`).hostname;
  } catch {
    return null;
  }
  host = host.replace(/\.$/, '');
  if (net.isIP(host) !== 0) return null;
  return DOMAIN.test(host) ? host : null;
}

/**
 * An address in canonical text. IPv4 in any spelling the URL standard accepts (2130706433, 0177.0.0.1,
 * 0x7f.1) is read as the address it denotes, so such spellings cannot pass as something else.
 */
function toIp(input: string): string | null {
  const bare = input.replace(/^\[(.*)\]$/, '$1');
  if (net.isIPv6(bare)) return bare.toLowerCase();
  if (net.isIPv4(bare)) return bare;
  if (!/^[0-9a-fx.]+$/i.test(bare)) return null;
  try {
    const host = new URL(`http://${bare}`).hostname;
    return net.isIPv4(host) ? host : null;
  } catch {
    return null;
  }
}
