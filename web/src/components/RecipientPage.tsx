import type { ReactNode } from 'react';
import { BrandedPage } from '../brand/BrandedPage';

/** The frame of a page a recipient opens from an email (unsubscribe, listen): the product's look, narrow, no app shell. */
export function RecipientPage({ children }: { children: ReactNode }) {
  return <BrandedPage>{children}</BrandedPage>;
}
