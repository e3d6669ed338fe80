/** `npm run build -w server`: the production bundle into server/dist (see bundle.ts). */
import path from 'node:path';
import { bundleServer, SERVER_ENTRIES } from './bundle.ts';

const dist = path.join(import.meta.dirname, 'dist');
await bundleServer(dist);
console.log(
  `server bundled into ${path.relative(process.cwd(), dist)} (${Object.keys(SERVER_ENTRIES).join(', ')}, with source maps)`,
);
