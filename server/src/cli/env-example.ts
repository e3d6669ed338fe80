/**
 * `npm run env-example`: writes .env.example and the README's configuration tables from the config
 * modules' declarations (server/src/config-reference.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderEnvExample, withReadmeTable } from '../config-reference.ts';

const repo = path.resolve(import.meta.dirname, '../../..');
const envExample = path.join(repo, '.env.example');
fs.writeFileSync(envExample, renderEnvExample());
const readme = path.join(repo, 'README.md');
fs.writeFileSync(readme, withReadmeTable(fs.readFileSync(readme, 'utf8')));
console.log(
  `wrote ${path.relative(process.cwd(), envExample)} and the tables of ${path.relative(process.cwd(), readme)}`,
);
