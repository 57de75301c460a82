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
    // .vite/manifest.json: which chunks the entry loads before anything else (bench/renderer.ts sums them).
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      // antd's component packages are pure but do not say so in package.json: without this, importing one
      // export (e.g. FormProvider, which every input imports) keeps the whole package in the first load.
      treeshake: { moduleSideEffects: [{ test: /node_modules[\\/](@rc-component|@ant-design[\\/](colors|cssinjs|cssinjs-utils|fast-color))[\\/]/, sideEffects: false }] },
    },
  },
  server: {
    // `npm run server` in one terminal, `npx vite --config renderer/vite.config.ts` in another.
    proxy: { '/api': 'http://127.0.0.1:3210' },
  },
});
