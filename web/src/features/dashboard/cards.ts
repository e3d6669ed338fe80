import { DASHBOARD_TWO_COLUMN_MAX_CARDS } from '@guildhall/common';

export type DashboardCard = {
  key: string;
  title: string;
  description: string;
  to: string;
  comingSoon?: boolean;
  adminOnly?: boolean;
};

const BASE_CARDS: DashboardCard[] = [
  {
    key: 'settings',
    title: 'User Settings',
    description: 'Your account, privacy and avatar.',
    to: '/settings',
  },
  {
    key: 'files',
    title: 'File System',
    description: 'Browse, upload and share community files.',
    to: '/filesystem',
  },
  {
    key: 'music',
    title: 'Music Control',
    description: 'Control the music bot: queue, playlists, effects.',
    to: '/music',
  },
  {
    key: 'infosec',
    title: 'InfoSec',
    description: 'OSINT lookups for authorized security research.',
    to: '/infosec',
  },
  {
    key: 'minigames',
    title: 'Minigames',
    description: 'Tic-tac-toe and Pictionary with other members.',
    to: '/minigames',
  },
];

const ADMIN_CARD: DashboardCard = {
  key: 'admin',
  title: 'Admin Panel',
  description: 'Approve members and manage access levels.',
  to: '/admin',
  adminOnly: true,
};

/** The dashboard cards for a user; the Admin Panel card only for admins. */
export function dashboardCards(isAdmin: boolean): DashboardCard[] {
  return isAdmin ? [...BASE_CARDS, ADMIN_CARD] : BASE_CARDS;
}

/** Grid has 2 columns for 4 or fewer cards, otherwise 3 (portal-core §9). */
export function gridColumns(cardCount: number): 2 | 3 {
  return cardCount <= DASHBOARD_TWO_COLUMN_MAX_CARDS ? 2 : 3;
}
