import { createContext, useContext } from 'react';

/** Marks on the page's content, the sidebar (DashboardNav's root) and its account block, where the tour's steps point. */
export const CONTENT_AREA = 'content';
export const SIDEBAR_AREA = 'sidebar';
export const ACCOUNT_AREA = 'account';

export interface TourValue {
  open: boolean;
  /** Starts the tour by hand: once per page session (spec §4); a no-op when `canStart` is false. */
  start: () => void;
  canStart: boolean;
}

export const TourContext = createContext<TourValue | null>(null);

export function useTour(): TourValue {
  const value = useContext(TourContext);
  if (!value) throw new Error('useTour must be used inside TourProvider');
  return value;
}
