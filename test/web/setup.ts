import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { stubShopStatus } from './helpers/fake-browser';

afterEach(() => {
  cleanup();
  // Browser APIs faked by a test (fetch, window.open, location, Date) must not leak into the next.
  vi.unstubAllGlobals();
  stubShopStatus({ mode: 'open' });
  vi.restoreAllMocks();
  vi.useRealTimers();
  // Nor what the page remembered: the next test starts as a new visitor.
  sessionStorage.clear();
  localStorage.clear();
});
