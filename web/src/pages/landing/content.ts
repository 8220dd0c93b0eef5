/** The landing page copy: marketing claims of spec §1, plans of §9. Kept apart from the layout. */
import { plans } from '../../../../schema/plans';
import { planCard, type PlanCard } from '../../lib/planCard';

export const ROTATING_WORDS = ['Heard', 'Signed', 'Released'] as const;

/** Spec §9 typing animation. */
export const TYPING_MS = 150;
export const DELETING_MS = 100;
export const PAUSE_MS = 2000;

export type FeatureIcon = 'ai' | 'chart' | 'pace' | 'lock' | 'db' | 'wave';

export const FEATURES: readonly { icon: FeatureIcon; title: string; text: string }[] = [
  {
    icon: 'ai',
    title: 'A unique email for every contact',
    text: 'A language model writes a personal pitch for each label, DJ and A&R contact from your track details. No copy-paste blasts.',
  },
  {
    icon: 'pace',
    title: 'Batch sending, rate-limited',
    text: "Campaigns go out gradually, one email a minute, so you stay inside your mailbox provider's sending limits.",
  },
  {
    icon: 'chart',
    title: 'Open, click and response analytics',
    text: 'See who opened your pitch, who clicked through to your track and how each campaign is doing.',
  },
  {
    icon: 'lock',
    title: 'Your own mailbox, via OAuth',
    text: 'Emails are sent from your own connected account through a secure OAuth connection. We never see your password.',
  },
  {
    icon: 'db',
    title: '500+ verified labels and A&R',
    text: 'LabelFinder is a curated database of verified labels and A&R contacts you can add to a campaign in a click.',
  },
  {
    icon: 'wave',
    title: 'Every electronic genre',
    text: 'House, techno, drum & bass, trance, hardstyle, ambient and everything in between are supported.',
  },
];

/** Illustrative quotes; the artists are invented and labelled as such on the page. */
export const TESTIMONIALS: readonly { quote: string; name: string; style: string }[] = [
  {
    quote: 'I used to spend whole weekends writing label emails by hand. Now every pitch still sounds like me, and it is done before my coffee is.',
    name: 'Mira Solenne',
    style: 'Deep House producer',
  },
  {
    quote: 'The slow, steady sending is the part I did not know I needed. My demos stopped disappearing into spam folders.',
    name: 'DJ Kettlewire',
    style: 'Drum & Bass DJ',
  },
  {
    quote: 'Seeing who actually opened my email and clicked my SoundCloud link changed how I follow up with A&R.',
    name: 'Oskar Nachtfeld',
    style: 'Techno artist',
  },
];

/** The pricing cards: the plan table of schema/plans.ts (spec §9), as every pricing card prints it. */
export const PLANS: readonly PlanCard[] = plans.map(planCard);

export const FAQS: readonly { question: string; answer: string }[] = [
  {
    question: 'How are my emails sent?',
    answer:
      'From your own mailbox. You connect your account once through OAuth, and Trackpitch sends each campaign gradually, at up to 60 emails an hour, so replies land straight in your inbox.',
  },
  {
    question: 'Does the AI write the same email to everyone?',
    answer:
      'No. A language model writes a unique email for each recipient from your track name, description and the contact. You preview and edit before anything is sent, or write your own HTML email instead.',
  },
  {
    question: 'Who is in the LabelFinder database?',
    answer:
      'More than 500 verified record labels and A&R contacts across electronic music. Pro and Expert plans include full access; the Free plan does not include the database.',
  },
  {
    question: 'Which genres does Trackpitch support?',
    answer: 'All electronic genres, from house and techno to drum & bass, dubstep, trance, hardstyle and ambient.',
  },
  {
    question: 'What do beta members get?',
    answer:
      'The beta is limited to the first 50 producers. Beta members use Trackpitch free during the beta, keep a 50% lifetime discount, get direct input on new features and VIP support.',
  },
  {
    question: 'Can I get my money back on a paid plan?',
    answer: 'Yes. Paid plans come with a 30-day money-back guarantee.',
  },
];

export const BETA_PERKS = ['Free during the beta', '50% lifetime discount', 'Direct input on features', 'VIP support'] as const;
