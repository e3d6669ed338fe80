import { matchPath } from 'react-router';

/** Each screen's name in the browser tab and history (issue 31), most specific first. */
const TITLES: [pattern: string, title: string][] = [
  ['/', 'Home'],
  ['/login', 'Login'],
  ['/auth/discord/callback', 'Signing in'],
  ['/shared/:token', 'Shared file'],
  ['/request/:token', 'Send files'],
  ['/notices', 'Notices'],
  ['/dashboard', 'Dashboard'],
  ['/admin', 'Admin Panel'],
  ['/settings', 'User Settings'],
  ['/infosec', 'InfoSec'],
  ['/filesystem', 'File System'],
  ['/music', 'Music Control'],
  ['/minigames', 'Minigames'],
  ['/minigames/tic-tac-toe', 'Tic-Tac-Toe'],
  ['/minigames/pictionary', 'Pictionary'],
];

export const APP_NAME = 'Guildhall';

/** "File System · Guildhall" for /filesystem; an address no route matches is "Page not found". */
export function pageTitle(pathname: string): string {
  const hit = TITLES.find(([pattern]) => matchPath({ path: pattern, end: true }, pathname));
  return `${hit ? hit[1] : 'Page not found'} · ${APP_NAME}`;
}
