import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Built into renderer/dist and served by the embedded server at `/` (server/static/static.ts). Relative asset
// URLs (base './') keep the build independent of where it is mounted; the app routes in the URL hash.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `npm run server` in one terminal, `npx vite --config renderer/vite.config.ts` in another.
    proxy: { '/api': 'http://127.0.0.1:3210' },
  },
});
