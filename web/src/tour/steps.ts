export interface TourStep {
  title: string;
  body: string;
  /** The sidebar item the step is about. */
  href?: string;
}

export const tourSteps: readonly [TourStep, ...TourStep[]] = [
  {
    title: 'Welcome to Trackpitch',
    body: 'This short tour shows where everything is in your dashboard. It takes a minute, and you can skip it at any time or replay it with Show Tour.',
  },
  {
    title: 'Dashboard',
    href: '/dashboard',
    body: 'Your overview: your plan, how many emails you have sent this month and whether your mailbox is connected. The counter in the sidebar shows the same.',
  },
  {
    title: 'Contacts',
    href: '/dashboard/contacts',
    body: 'Keep the labels, DJs and A&R people you pitch to. Add them one by one or import a CSV file.',
  },
  {
    title: 'Compose',
    href: '/dashboard/compose',
    body: 'Describe your track, pick recipients and let the AI write a personal email for each, or write your own HTML email.',
  },
  {
    title: 'Campaigns',
    href: '/dashboard/campaigns',
    body: 'Follow each campaign while it sends, one email a minute, and see opens, clicks and unsubscribes.',
  },
  {
    title: 'LabelFinder',
    href: '/dashboard/labelfinder',
    body: 'Browse a directory of labels and DJs that accept demos, with their genres and submission guidelines, and add them to your contacts.',
  },
  {
    title: 'Analytics',
    href: '/dashboard/analytics',
    body: 'See how your pitches perform over time.',
  },
  {
    title: 'Settings',
    href: '/dashboard/settings',
    body: 'Connect your Gmail account (needed before sending) and complete your artist profile.',
  },
  {
    title: 'Subscription',
    href: '/dashboard/subscription',
    body: 'Check your plan and upgrade when you need more emails or full LabelFinder access. That is it: happy pitching!',
  },
];
