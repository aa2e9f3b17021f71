import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False while the build writes a page's HTML and while the browser takes that HTML over, true
 * from the render after: what only the browser knows (the address's query, today's date) waits
 * for it, so hydration finds exactly what was written. A page drawn without prerendered HTML
 * gets true at once.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
