import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * The admin address's query (`?view=`, `?order=`, the list's filters), read from the location.
 * Not react-router's useSearchParams: the router sits in the shop's first-load chunk with every
 * part any page uses, and that hook would add about 0.5 KiB gzip to it.
 */
export function useAdminParams(): URLSearchParams {
  const { search } = useLocation();
  return useMemo(() => new URLSearchParams(search), [search]);
}
