import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/** `npm run screenshots`: the README's pictures, taken against the same local stack as the browser tests. */
export default defineConfig({
  ...base,
  testDir: 'test/screenshots',
  testMatch: '**/*.shots.ts',
  timeout: 90_000,
});
