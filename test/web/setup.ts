import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

afterEach(() => {
  cleanup();
  // Browser APIs faked by a test (fetch, window.open, location, Date) must not leak into the next.
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

// The app loads zod and the schemas on demand. Load them once here, so a test's findBy timeout
// never includes vitest compiling them on first use (slow on a busy machine).
await Promise.all([import('../../web/src/lib/response-schemas'), import('../../shared/checkout-request')]);
