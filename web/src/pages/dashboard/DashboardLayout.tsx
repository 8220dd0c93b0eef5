import AppLayout from '@cloudscape-design/components/app-layout';
import { Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { FullScreenSpinner } from '../../components/FullScreenSpinner';
import { TourProvider } from '../../tour/TourProvider';
import { DashboardNav } from './DashboardNav';

/** Cloudscape switches the navigation to a drawer below this width. */
const MOBILE_QUERY = '(max-width: 688px)';

function isMobile(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches;
}

export default function DashboardLayout() {
  const [navigationOpen, setNavigationOpen] = useState(() => !isMobile());

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(MOBILE_QUERY);
    const onChange = () => setNavigationOpen(!query.matches);
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, []);

  // On phones the navigation is a drawer over the page: Escape closes it, as it would a dialog.
  useEffect(() => {
    if (!navigationOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || !isMobile()) return;
      setNavigationOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [navigationOpen]);

  return (
    <TourProvider>
      <AppLayout
        navigation={<DashboardNav onNavigate={() => isMobile() && setNavigationOpen(false)} />}
        navigationOpen={navigationOpen}
        onNavigationChange={({ detail }) => setNavigationOpen(detail.open)}
        navigationWidth={300}
        toolsHide
        ariaLabels={{
          navigation: 'Dashboard navigation',
          navigationToggle: 'Open navigation',
          navigationClose: 'Close navigation',
        }}
        content={
          <Suspense fallback={<FullScreenSpinner />}>
            <Outlet />
          </Suspense>
        }
      />
    </TourProvider>
  );
}
