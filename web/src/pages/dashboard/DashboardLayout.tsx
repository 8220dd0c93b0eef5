import AppLayout from '@cloudscape-design/components/app-layout';
import { Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { FullScreenSpinner } from '../../components/FullScreenSpinner';
import { isPhoneViewport, PHONE_MEDIA_QUERY } from '../../lib/viewport';
import { useNotificationsOutlet } from '../../notifications/NotificationsContext';
import { CONTENT_AREA } from '../../tour/TourContext';
import { TourProvider } from '../../tour/TourProvider';
import { UsageProvider } from '../../usage/UsageContext';
import { DashboardNav } from './DashboardNav';
import { usePrefetchPageLibraries } from './prefetchPageLibraries';

/** Cloudscape switches the navigation to a drawer below this width. */

export default function DashboardLayout() {
  const [navigationOpen, setNavigationOpen] = useState(() => !isPhoneViewport());
  usePrefetchPageLibraries();
  // Toasts in AppLayout's notifications slot, above the page header: never over its buttons.
  const toasts = useNotificationsOutlet();

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    // Safari before 14 has no addEventListener on MediaQueryList: the type says what may be missing.
    const query: Pick<MediaQueryList, 'matches'> & Partial<Pick<MediaQueryList, 'addEventListener' | 'removeEventListener'>> =
      window.matchMedia(PHONE_MEDIA_QUERY);
    const onChange = () => setNavigationOpen(!query.matches);
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, []);

  // On phones the navigation is a drawer over the page: Escape closes it, as it would a dialog.
  useEffect(() => {
    if (!navigationOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || !isPhoneViewport()) return;
      setNavigationOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [navigationOpen]);

  return (
    // Around the sidebar and the pages: both show this month's usage from the one source.
    <UsageProvider>
      <TourProvider>
        <AppLayout
          navigation={<DashboardNav onNavigate={() => isPhoneViewport() && setNavigationOpen(false)} />}
          navigationOpen={navigationOpen}
          onNavigationChange={({ detail }) => setNavigationOpen(detail.open)}
          navigationWidth={300}
          toolsHide
          notifications={toasts}
          stickyNotifications
          ariaLabels={{
            navigation: 'Dashboard navigation',
            navigationToggle: 'Open navigation',
            navigationClose: 'Close navigation',
            notifications: 'Notifications',
          }}
          content={
            <div data-tour-area={CONTENT_AREA}>
              <Suspense fallback={<FullScreenSpinner />}>
                <Outlet />
              </Suspense>
            </div>
          }
        />
      </TourProvider>
    </UsageProvider>
  );
}
