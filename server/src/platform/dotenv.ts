import fs from 'node:fs';

/** Loads `.env` from the working directory when present; real environment variables win. */
export function loadDotEnv(file = '.env'): void {
  if (!fs.existsSync(file)) return;
  process.loadEnvFile(file);
}
