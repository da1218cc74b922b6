import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The dashboard is served by the gateway at /admin from dist/web (src/dashboard/dashboard-static.ts).
// No React plugin: Vite's own transformer compiles the JSX, and fast refresh is not needed for a
// build that the gateway serves as static files.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
});
