import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while React renders at build time (prerendering) and while the browser takes that HTML
 * over; true from the render after. Content that depends on the moment (today's dispatch date)
 * waits for it, so the HTML written at build time and the first render in the browser agree.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
