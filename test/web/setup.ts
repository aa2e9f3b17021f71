import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { loadOrderFlow } from '../../web/src/features/order/order-flow-loader';
import { stubShopStatus } from './helpers/fake-browser';

// CI runs 160 files on 2 cores: a page that answers in 20 ms alone can take over a second there,
// and Testing Library's default wait (1 s) then failed a correct page (the admin's lost-answer
// test, CI stop 26). Waits end as soon as the page is right, so a longer bound costs nothing.
configure({ asyncUtilTimeout: 5000 });

// In the browser the order flow (fields, checks, checkout) loads right after the page hydrates,
// long before a customer can click; the tests act as that customer, so it is loaded first.
beforeAll(async () => {
  await loadOrderFlow();
});

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
