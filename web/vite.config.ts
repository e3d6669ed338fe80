import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { describePrecompressed, precompressDir } from './scripts/precompress.ts';

const backend = process.env.GUILDHALL_DEV_BACKEND ?? 'http://127.0.0.1:3000';

/** After a build, a brotli and a gzip copy of every text file, for the server to send as they are. */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'guildhall-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      this.info(describePrecompressed(precompressDir(outDir)));
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      '/api': backend,
      '/upload': backend,
      '/download': backend,
      '/socket.io': { target: backend, ws: true },
    },
  },
});
