import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * The admin address's query (`?view=`, `?order=`, the list's filters), read from the location.
 * Not react-router's useSearchParams, which added about 0.5 KiB gzip to the router when the shop
 * and the admin shared it (ADR 0028); the admin has its own copy since ADR 0033, and this is still
 * the smaller of the two.
 */
export function useAdminParams(): URLSearchParams {
  const { search } = useLocation();
  return useMemo(() => new URLSearchParams(search), [search]);
}
