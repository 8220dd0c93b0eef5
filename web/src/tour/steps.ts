import { accountNavItems, mainNavItems } from '../pages/dashboard/navigation';
import { ACCOUNT_AREA, CONTENT_AREA, SIDEBAR_AREA } from './TourContext';

/** Where a step points: a CSS selector for its anchor, the first visible match (none: the panel stands alone). */
export interface TourStep {
  id: string;
  title: string;
  body: string;
  anchor: string;
}

const sidebarLink = (href: string) => `[data-tour-area="${SIDEBAR_AREA}"] a[href="${href}"]`;

const welcome: TourStep = {
  id: 'welcome',
  title: 'Welcome to Trackpitch',
  anchor: 'main h1',
  body: 'This short tour shows where everything is in your dashboard. It takes a minute, and you can skip it at any time or replay it with Show Tour.',
};

const overview: TourStep = {
  id: 'overview',
  title: 'Your dashboard',
  anchor: `[data-tour-area="${CONTENT_AREA}"]`,
  body: 'Your overview: your plan, how many emails you have sent and have left this month, and whether your mailbox is connected.',
};

/** What each sidebar section is for, in sidebar order (the Dashboard item is the overview step). */
const sectionBodies: Record<string, string> = {
  '/dashboard/contacts': 'Keep the labels, DJs and A&R people you pitch to. Add them one by one or import a CSV file.',
  '/dashboard/compose': 'Describe your track, pick recipients and let the AI write a personal email for each, or write your own HTML email.',
  '/dashboard/tracks': 'See where every contact stands with each track you pitched: opened, listened, answered, signed or passed.',
  '/dashboard/campaigns': 'Save and reuse email templates, and follow each campaign while it sends: opens, clicks and unsubscribes.',
  '/dashboard/labelfinder':
    'Browse a directory of labels and DJs that accept demos, with their genres and submission guidelines, and add them to your contacts.',
  '/dashboard/analytics': 'See how your pitches perform over time.',
  '/dashboard/settings': 'Connect your Gmail account (needed before sending) and complete your artist profile.',
  '/dashboard/subscription': 'Check your plan and upgrade when you need more emails or full LabelFinder access.',
};

const sectionSteps: TourStep[] = [...mainNavItems, ...accountNavItems]
  .filter((item) => item.href in sectionBodies)
  .map((item) => ({
    id: item.href.slice(item.href.lastIndexOf('/') + 1),
    title: item.text,
    anchor: sidebarLink(item.href),
    body: sectionBodies[item.href] ?? '',
  }));

const account: TourStep = {
  id: 'account',
  title: 'Your plan and usage',
  anchor: `[data-tour-area="${ACCOUNT_AREA}"]`,
  body: 'Your plan, your mailbox connection and the emails you have sent this month. Show Tour replays this tour. That is it: happy pitching!',
};

/** On a desktop the sidebar is always there: a step for each section and the account block. */
export const desktopTourSteps: readonly [TourStep, ...TourStep[]] = [welcome, overview, ...sectionSteps, account];

/** On a phone the sidebar is a drawer behind the menu button: one step points at the button instead. */
export const phoneTourSteps: readonly [TourStep, ...TourStep[]] = [
  welcome,
  overview,
  {
    id: 'menu',
    title: 'The menu',
    anchor: 'button[aria-label="Open navigation"]',
    body: `Open the menu for ${[...mainNavItems, ...accountNavItems]
      .slice(1)
      .map((item) => item.text)
      .join(', ')}, your plan and usage, Show Tour and Sign out. That is it: happy pitching!`,
  },
];
