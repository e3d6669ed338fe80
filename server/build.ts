/** `npm run build -w server`: the production bundle into server/dist (see bundle.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { bundleServer, SERVER_ENTRIES } from './bundle.ts';

const dist = path.join(import.meta.dirname, 'dist');
await bundleServer(dist);
// Data files the bundle reads at run time, next to it (the Pictionary word banks).
fs.cpSync(
  path.join(import.meta.dirname, 'src/features/games/pictionary/word-banks'),
  path.join(dist, 'word-banks'),
  {
    recursive: true,
  },
);
console.log(
  `server bundled into ${path.relative(process.cwd(), dist)} (${Object.keys(SERVER_ENTRIES).join(', ')}, with source maps)`,
);
