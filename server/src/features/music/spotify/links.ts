/** What a Spotify link points at: the kinds the portal queues (issue 48). */
export type SpotifyLink = { kind: 'track' | 'album' | 'playlist' | 'artist'; id: string };

const KINDS = ['track', 'album', 'playlist', 'artist'] as const;
/** Spotify ids are 22 base-62 characters. */
const ID = /^[0-9A-Za-z]{22}$/;

/** Whether a pasted link or URI is Spotify's (then it is answered as Spotify, supported kind or not). */
export function isSpotifyUrl(url: string): boolean {
  if (/^spotify:/i.test(url)) return true;
  if (!URL.canParse(url)) return false;
  const host = new URL(url).hostname.toLowerCase();
  return host === 'open.spotify.com' || host === 'play.spotify.com';
}

/**
 * The track, album, playlist or artist of a Spotify link (`https://open.spotify.com/intl-de/track/<id>?si=…`,
 * `spotify:album:<id>`), or null when it is Spotify's but none of those (a podcast, a user, a short link).
 */
export function parseSpotifyLink(url: string): SpotifyLink | null {
  let parts: string[];
  if (/^spotify:/i.test(url)) parts = url.split(':').slice(1);
  else if (URL.canParse(url)) {
    parts = new URL(url).pathname.split('/').filter(Boolean);
    if (/^intl-[a-z]{2}(-[a-z]{2})?$/i.test(parts[0] ?? '')) parts = parts.slice(1);
    if (parts[0] === 'embed') parts = parts.slice(1);
  } else return null;
  const [kind, id] = parts;
  const known = KINDS.find((k) => k === kind);
  if (!known || !id || !ID.test(id)) return null;
  return { kind: known, id };
}
