import { useEffect } from 'react';

/**
 * What the dashboard's first paint does without but the other signed-in pages share: zod, which nearly
 * all of them validate with (about 25 KB gzip; fetched with the profile contract, the chunk the sign-in
 * used to load), and Cloudscape's Modal and ButtonDropdown, which came with the dashboard before (with
 * the tour and AppLayout's drawer menu). Fetched 300 ms after the dashboard is on screen, so that opening
 * a page from the sidebar is no slower than when they came with the first load.
 */
export function usePrefetchPageLibraries() {
  useEffect(() => {
    if (import.meta.env.MODE === 'test') return;
    const timer = setTimeout(() => {
      for (const load of [
        () => import('../../../../schema/api/profile'),
        () => import('@cloudscape-design/components/modal'),
        () => import('@cloudscape-design/components/button-dropdown'),
      ])
        void load().catch(() => {});
    }, 300);
    return () => clearTimeout(timer);
  }, []);
}
