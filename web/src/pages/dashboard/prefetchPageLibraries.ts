import { useEffect } from 'react';

/**
 * The dashboard's first paint needs no zod, but nearly every other signed-in page validates with it
 * (about 25 KB gzip). Fetch it with the profile contract (the chunk the sign-in used to load) once the
 * dashboard is on screen, so that opening a page from the sidebar is no slower than before.
 */
export function usePrefetchPageLibraries() {
  useEffect(() => {
    if (import.meta.env.MODE === 'test') return;
    const timer = setTimeout(() => void import('../../../../schema/api/profile').catch(() => {}), 300);
    return () => clearTimeout(timer);
  }, []);
}
