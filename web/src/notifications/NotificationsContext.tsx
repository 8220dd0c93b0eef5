import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';

export type NotificationType = 'success' | 'error' | 'warning' | 'info';

/**
 * A button on a notification: `href` goes to an app path (through the router) or another site;
 * `onClick` runs code. Either way the notification is dismissed once the button is used.
 */
export type NotificationAction = { label: string } & ({ href: string; onClick?: undefined } | { onClick: () => void; href?: undefined });

export interface Notification {
  id: string;
  type: NotificationType;
  title: string;
  message?: string;
  action?: NotificationAction;
}

export interface NotifyInput {
  type?: NotificationType;
  title: string;
  message?: string;
  action?: NotificationAction;
  /**
   * Auto-dismiss after this many ms; 0 keeps it until dismissed. Default 6 s, 8 s for errors, and 0 with
   * an action (a button that vanishes on a timer cannot be reached by everyone in time).
   */
  durationMs?: number;
}

export interface NotificationsValue {
  notify: (input: NotifyInput) => string;
  dismiss: (id: string) => void;
  notifications: readonly Notification[];
}

export const NotificationsContext = createContext<NotificationsValue | null>(null);

export function useNotifications(): NotificationsValue {
  const value = useContext(NotificationsContext);
  if (!value) throw new Error('useNotifications must be used inside NotificationsProvider');
  return value;
}

// Flashbar is only downloaded once there is something to show, which keeps it out of the landing route.
const Toasts = lazy(() => import('./Toasts'));

/**
 * Where the toasts show. By default at a fixed place over the page (top right; at the bottom on phones). A
 * page with a header of buttons claims an outlet instead (useNotificationsOutlet) and shows them in its own
 * slot, above its header (AppLayout's notifications slot in the dashboard), so a toast never covers the
 * header's buttons (issue 25 §5).
 */
const OutletContext = createContext<(() => () => void) | null>(null);

let counter = 0;

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [notifications, setNotifications] = useState<Notification[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: string) => {
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
    setNotifications((current) => current.filter((n) => n.id !== id));
  }, []);

  const notify = useCallback(
    ({ type = 'info', title, message, action, durationMs }: NotifyInput) => {
      counter += 1;
      const id = `notification-${counter}`;
      setNotifications((current) => [...current.slice(-4), { id, type, title, message, action }]);
      const duration = durationMs ?? (action ? 0 : type === 'error' ? 8000 : 6000);
      if (duration > 0)
        timers.current.set(
          id,
          setTimeout(() => dismiss(id), duration),
        );
      return id;
    },
    [dismiss],
  );

  useEffect(() => {
    const map = timers.current;
    return () => {
      map.forEach((timer) => clearTimeout(timer));
      map.clear();
    };
  }, []);

  const value = useMemo(() => ({ notify, dismiss, notifications }), [notify, dismiss, notifications]);

  const [outlets, setOutlets] = useState(0);
  const claimOutlet = useCallback(() => {
    setOutlets((n) => n + 1);
    return () => setOutlets((n) => n - 1);
  }, []);

  return (
    <NotificationsContext.Provider value={value}>
      <OutletContext.Provider value={claimOutlet}>{children}</OutletContext.Provider>
      {outlets === 0 && notifications.length > 0 && (
        <Suspense fallback={null}>
          <Toasts notifications={notifications} onDismiss={dismiss} placement="fixed" />
        </Suspense>
      )}
    </NotificationsContext.Provider>
  );
}

/**
 * Claims the toasts for the calling page while it is shown, and returns them to put in its own slot
 * (undefined while there are none). Outside a NotificationsProvider it returns undefined.
 */
export function useNotificationsOutlet(): ReactNode {
  const claim = useContext(OutletContext);
  const value = useContext(NotificationsContext);
  // Before paint: a toast shown as the page opens never flashes at the fixed place first.
  useLayoutEffect(() => claim?.(), [claim]);
  if (!claim || !value || value.notifications.length === 0) return undefined;
  return (
    <Suspense fallback={null}>
      <Toasts notifications={value.notifications} onDismiss={value.dismiss} placement="inline" />
    </Suspense>
  );
}
