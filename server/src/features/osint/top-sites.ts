/**
 * The "top sites" an e-mail's local part and a person's candidate usernames are checked on: widely used
 * platforms where a username is a public handle. Names as the list spells them. Apart from sites.ts, so
 * naming them does not load the site list (bench/startup).
 */
export const TOP_SITE_NAMES = [
  'Reddit',
  'Instagram',
  'TikTok',
  'Twitch',
  'X',
  'Pinterest',
  'Medium',
  'GitLab',
  'Steam',
  'SoundCloud',
  'Telegram',
  'Keybase',
  'Patreon',
  'Vimeo',
  'Flickr',
  'tumblr',
  'Hacker News',
  'npm',
  'Replit',
  'Linktree',
  'Behance',
  'Dribbble',
  'Chess.com',
  'Duolingo',
  'Letterboxd',
  'Codewars',
  'LeetCode',
  'HackerOne',
  'Kaggle',
  'Spotify',
] as const;
