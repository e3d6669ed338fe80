import type { Migration } from 'kysely/migration';
import * as m001 from './001_core.ts';
import * as m002 from './002_admin_audit.ts';
import * as m003 from './003_files.ts';
import * as m004 from './004_tictactoe.ts';
import * as m008 from './008_storage.ts';

/** Every migration, in order. Numbers are reserved per feature: 002 audit, 003 files, 004 games. */
export const migrations: Record<string, Migration> = {
  '001_core': m001,
  '002_admin_audit': m002,
  '003_files': m003,
  '004_tictactoe': m004,
  '008_storage': m008,
};
