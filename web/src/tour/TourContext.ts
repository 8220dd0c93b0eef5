import { createContext, useContext } from 'react';

export interface TourValue {
  open: boolean;
  start: () => void;
}

export const TourContext = createContext<TourValue | null>(null);

export function useTour(): TourValue {
  const value = useContext(TourContext);
  if (!value) throw new Error('useTour must be used inside TourProvider');
  return value;
}
