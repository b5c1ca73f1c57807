import react from '@vitejs/plugin-react';
import { env } from 'node:process';
import { defineConfig } from 'vite';

// `npx vite` for hot reload beside a running `multihop studio`: MULTIHOP_STUDIO_URL is its
// http://127.0.0.1:<port>; API calls go there. The studio refuses cross-origin POSTs, so the
// proxy drops the dev page's Origin (the request is the developer's own, on loopback).
const studio = env['MULTIHOP_STUDIO_URL'];

// The studio is served by the runner (`multihop studio`) from dist/, and inlined whole into one
// HTML file by `multihop report`: relative asset paths, one JS bundle, one stylesheet.
export default defineConfig({
  base: './',
  plugins: [react()],
  ...(studio
    ? {
        server: {
          proxy: {
            '/api': { target: studio, changeOrigin: true, configure: (proxy) => proxy.on('proxyReq', (request) => request.removeHeader('origin')) },
          },
        },
      }
    : {}),
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 4000,
    rollupOptions: { output: { codeSplitting: false, entryFileNames: 'assets/studio.js', assetFileNames: 'assets/[name][extname]' } },
  },
});
