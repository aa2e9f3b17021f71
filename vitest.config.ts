import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    // Integration suites start their own stand-ins on random ports, so files can run in parallel.
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['test/web/**/*.test.{ts,tsx}'],
          // site-config.ts first: the app's modules read the site's settings as they load.
          setupFiles: ['test/web/site-config.ts', 'test/web/setup.ts'],
          // Above the 5 s wait of setup.ts, so a page that never gets right fails on what it shows.
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/web/**', 'test/e2e/**'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
