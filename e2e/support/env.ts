import path from 'node:path';

/** Fixed loopback ports and paths for the browser test run (overridable through the environment). */
export const APP_PORT = Number(process.env.E2E_APP_PORT ?? 4310);
export const DISCORD_PORT = Number(process.env.E2E_DISCORD_PORT ?? 4311);
export const BASE_URL = `http://127.0.0.1:${APP_PORT}`;
export const DISCORD_BASE = `http://127.0.0.1:${DISCORD_PORT}`;
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(ROOT, '.tmp', 'e2e-data');
export const DB_FILE = path.join(DATA_DIR, 'guildhall.db');
export const ACCESS_CODE = 'e2e-access-code-0123';
/** A real admin exists from the start, so setup mode is off and the demo identity is a viewer. */
export const BOOTSTRAP_ADMIN_ID = '300000000000000001';
