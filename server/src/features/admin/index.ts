/** The admin feature: user management and the audit trail (the CLI drives the same service). */
import { defineFeature } from '../../platform/feature.ts';
import { adminRoutes } from './routes.ts';

export {
  type Actor,
  CLI_ACTOR,
  createUser,
  listAudit,
  listUsers,
  recordActivity,
  recordSystemChange,
  removeUser,
  revokeSessions,
  updateUser,
} from './service.ts';
export type { AdminTables } from './tables.ts';

export const adminFeature = defineFeature({ name: 'admin', routes: (ctx) => adminRoutes(ctx) });
