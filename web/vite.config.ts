import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const backend = process.env.GUILDHALL_DEV_BACKEND ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
