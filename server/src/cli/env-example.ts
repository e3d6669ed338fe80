/** `npm run env-example`: writes .env.example from the config schema (server/src/config-reference.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { renderEnvExample } from '../config-reference.ts';

const file = path.resolve(import.meta.dirname, '../../../.env.example');
fs.writeFileSync(file, renderEnvExample());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
