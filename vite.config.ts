import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: 'web',
  // .env files live at the repo root, next to the other settings, not inside web/.
  envDir: repoRoot,
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // Keep every asset a file: the CSP (`script-src 'self'`, `style-src 'self'`) refuses inline
    // content, and an inlined data: URL would need its own exception.
    assetsInlineLimit: 0,
  },
  server: {
    // `npm run dev:web` against the local stack (`npm start`), which serves the API on port 3000.
    proxy: { '/functions': 'http://localhost:3000' },
  },
});
