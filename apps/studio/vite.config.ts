import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The studio is served by the runner (`multihop studio`) from dist/, and inlined whole into one
// HTML file by `multihop report`: relative asset paths, one JS bundle, one stylesheet.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 4000,
    rollupOptions: { output: { inlineDynamicImports: true, entryFileNames: 'assets/studio.js', assetFileNames: 'assets/[name][extname]' } },
  },
});
