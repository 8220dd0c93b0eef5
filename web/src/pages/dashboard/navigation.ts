export interface NavItem {
  text: string;
  href: string;
  /** Short secondary text shown next to the link (outside it, so the link's accessible name stays `text`). */
  description?: string;
}

/** The dashboard sections in sidebar order (spec §2 "Dashboard shell"); a divider comes before Settings. */
export const mainNavItems: readonly NavItem[] = [
  { text: 'Dashboard', href: '/dashboard' },
  { text: 'Contacts', href: '/dashboard/contacts' },
  { text: 'Compose', href: '/dashboard/compose' },
  { text: 'Tracks', href: '/dashboard/tracks' },
  { text: 'Campaigns', href: '/dashboard/campaigns', description: 'Save and reuse email templates' },
  { text: 'LabelFinder', href: '/dashboard/labelfinder' },
  { text: 'Analytics', href: '/dashboard/analytics' },
];

export const accountNavItems: readonly NavItem[] = [
  { text: 'Settings', href: '/dashboard/settings' },
  { text: 'Subscription', href: '/dashboard/subscription' },
];

/** Shown only when the app runs locally (runtime config mode 'local'): the local mailbox's sent folder. */
export const localNavItems: readonly NavItem[] = [{ text: 'Outbox', href: '/dashboard/outbox', description: 'Local mailbox' }];

/** The item to highlight: the longest item path that is the current path or a prefix of it. */
export function activeNavHref(pathname: string): string | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  let best: string | undefined;
  for (const { href } of [...mainNavItems, ...accountNavItems, ...localNavItems]) {
    if ((path === href || path.startsWith(`${href}/`)) && (!best || href.length > best.length)) best = href;
  }
  return best;
}
