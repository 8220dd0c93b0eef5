import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiMessages, CLIENT_LIMIT_CODE, gatewayMessages } from '../../schema/api/serverMessages';
import { plans } from '../../schema/plans';
import { waitlistMessages } from '../../schema/api/waitlistConstants';
import { MUSIC_STYLES, WAITLIST_TEXT } from '../../web/src/api/waitlist';
import { fakeMatchMedia } from './matchMedia';
import { ConfigContext } from '../../web/src/config/ConfigContext';
import LandingPage from '../../web/src/pages/landing/LandingPage';
import { currentPath, localConfig, preloadRoutes, renderApp } from './helpers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/landing/DemoWalkthrough');
}, 60_000);

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type Handler = (init: RequestInit | undefined) => Promise<Response> | Response;

/** A fake fetch: spots from `spots`, the join answered by `join`. Records the join bodies. */
function fakeApi({ spots = { total: 50, taken: 8, remaining: 42 }, spotsStatus = 200, join }: { spots?: unknown; spotsStatus?: number; join?: Handler } = {}) {
  const joins: unknown[] = [];
  const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
    const url = input as string;
    if (url === '/api/waitlist/spots') return json(spots, spotsStatus);
    if (url === '/api/waitlist' && init?.method === 'POST') {
      joins.push(JSON.parse(init.body as string));
      return join ? join(init) : json({ id: '1' }, 201);
    }
    return json({ message: gatewayMessages.notFound }, 404);
  });
  return { fetchImpl, joins };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.hash}`}</output>;
}

function renderLanding(fetchImpl: typeof fetch = fakeApi().fetchImpl) {
  return render(
    <ConfigContext.Provider value={localConfig}>
      <MemoryRouter initialEntries={['/landing']}>
        <Routes>
          <Route path="/landing" element={<LandingPage fetchImpl={fetchImpl} />} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </ConfigContext.Provider>,
  );
}

const typedWord = () => screen.getByTestId('typed-word').textContent;

/** Advances fake time in 50 ms steps, letting React render (and schedule the next timer) in between. */
function advance(ms: number) {
  for (let left = ms; left > 0; left -= 50)
    act(() => {
      vi.advanceTimersByTime(Math.min(50, left));
    });
}

const scrollIntoView = vi.fn();
// jsdom has no matchMedia: what is there (nothing) is put back after each test.
const originalMatchMedia = Reflect.get(window, 'matchMedia') as unknown;

beforeEach(() => {
  scrollIntoView.mockReset();
  Element.prototype.scrollIntoView = scrollIntoView;
});

afterEach(() => {
  Reflect.set(window, 'matchMedia', originalMatchMedia);
  document.body.style.overflow = '';
});

function preferReducedMotion() {
  window.matchMedia = fakeMatchMedia((query) => query.includes('prefers-reduced-motion: reduce'));
}

async function fillRequired(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Email'), 'nova@example.com');
  await user.type(screen.getByLabelText('Artist Name'), 'Nova Pulse');
  await user.selectOptions(screen.getByLabelText('Music Style'), 'Deep House');
}

describe('landing page: hero', () => {
  it('rotates Heard, Signed, Released: 2000 ms pause, deleting every 100 ms, typing every 150 ms', () => {
    vi.useFakeTimers();
    renderLanding();
    expect(screen.getByRole('heading', { level: 1, name: 'Get your tracks heard' })).toBeInTheDocument();
    expect(typedWord()).toBe('Heard');
    act(() => {
      vi.advanceTimersByTime(1999);
    });
    expect(typedWord()).toBe('Heard');
    act(() => {
      vi.advanceTimersByTime(1);
    }); // the pause is over: deleting starts
    act(() => {
      vi.advanceTimersByTime(99);
    });
    expect(typedWord()).toBe('Heard');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(typedWord()).toBe('Hear');
    for (const expected of ['Hea', 'He', 'H', '']) {
      act(() => {
        vi.advanceTimersByTime(100);
      });
      expect(typedWord()).toBe(expected);
    }
    act(() => {
      vi.advanceTimersByTime(149);
    });
    expect(typedWord()).toBe('');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(typedWord()).toBe('S');
    for (const expected of ['Si', 'Sig', 'Sign', 'Signe', 'Signed']) {
      act(() => {
        vi.advanceTimersByTime(150);
      });
      expect(typedWord()).toBe(expected);
    }
    advance(2000 + 100 * 6 + 150 * 8);
    expect(typedWord()).toBe('Released');
    advance(2000 + 100 * 8 + 150 * 5);
    expect(typedWord()).toBe('Heard'); // and round again
  });

  it('shows still text, without a caret, when the visitor prefers reduced motion', () => {
    preferReducedMotion();
    vi.useFakeTimers();
    renderLanding();
    expect(typedWord()).toBe('Heard');
    advance(20_000);
    expect(typedWord()).toBe('Heard');
    expect(screen.getByTestId('typed-word').children).toHaveLength(0);
    expect(screen.getByRole('heading', { level: 1, name: 'Get your tracks heard' })).toBeInTheDocument();
  });

  it('Start Free Trial scrolls to the waitlist form and puts the keyboard on Email', async () => {
    renderLanding();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start Free Trial' }));
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById('waitlist-form'));
    expect(screen.getByLabelText('Email')).toHaveFocus();
  });

  it('Login goes to /auth', async () => {
    vi.stubGlobal('fetch', fakeApi().fetchImpl);
    try {
      renderApp('/');
      await userEvent.setup().click(await screen.findByRole('button', { name: 'Login' }));
      await waitFor(() => expect(currentPath()).toBe('/auth'));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('Watch Demo opens a walkthrough dialog that steps through the product and closes', async () => {
    const user = userEvent.setup();
    renderLanding();
    const watch = screen.getByRole('button', { name: 'Watch Demo' });
    await user.click(watch);
    const dialog = await screen.findByRole('dialog', { name: 'How Trackpitch works' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(within(dialog).getByText('Step 1 of 5')).toBeInTheDocument();
    expect(within(dialog).getByRole('heading', { name: 'Connect your mailbox' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByRole('heading', { name: 'Import your contacts' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByRole('heading', { name: 'Compose with AI' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(within(dialog).getByText('Step 2 of 5')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(watch).toHaveFocus();

    await user.click(watch);
    const again = await screen.findByRole('dialog', { name: 'How Trackpitch works' });
    expect(within(again).getByText('Step 1 of 5')).toBeInTheDocument();
    await user.click(within(again).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("the walkthrough's last step leads to the waitlist form", async () => {
    const user = userEvent.setup();
    renderLanding();
    await user.click(screen.getByRole('button', { name: 'Watch Demo' }));
    const dialog = await screen.findByRole('dialog');
    for (let step = 0; step < 4; step += 1) await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(dialog).getByRole('heading', { name: 'Track opens and clicks' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Join the waitlist' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(scrollIntoView.mock.contexts.at(-1)).toBe(document.getElementById('waitlist-form'));
    expect(screen.getByLabelText('Email')).toHaveFocus();
  });
});

describe('landing page: sections', () => {
  it('has one h1, feature cards, three testimonials with fictional artists and a six-question FAQ', async () => {
    const user = userEvent.setup();
    renderLanding();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    const features = document.getElementById('features')!;
    expect(within(features).getAllByRole('listitem').length).toBeGreaterThanOrEqual(6);
    expect(within(features).getByText(/500\+ verified labels/)).toBeInTheDocument();
    const testimonials = screen.getByRole('region', { name: 'Made for how artists really pitch' });
    expect(within(testimonials).getAllByRole('figure')).toHaveLength(3);
    expect(within(testimonials).getAllByText('(fictional)')).toHaveLength(3);

    const faq = document.getElementById('faq')!;
    const questions = within(faq).getAllByRole('button');
    expect(questions).toHaveLength(6);
    const first = questions[0]!;
    expect(first).toHaveAttribute('aria-expanded', 'false');
    const answer = document.getElementById(first.getAttribute('aria-controls')!)!;
    expect(answer).not.toBeVisible();
    await user.click(first);
    expect(first).toHaveAttribute('aria-expanded', 'true');
    expect(answer).toBeVisible();
    await user.click(first);
    expect(first).toHaveAttribute('aria-expanded', 'false');
  });

  it('shows the Free, Pro (most popular) and Expert plans; each Get Started scrolls to the form', async () => {
    const user = userEvent.setup();
    renderLanding();
    const pricing = document.getElementById('pricing')!;
    const plans = within(pricing)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(plans).toEqual(['Free', 'Pro', 'Expert']);
    const text = pricing.textContent;
    for (const fact of [
      '$0',
      'forever',
      '50 emails per month',
      '$29',
      '500 emails per month',
      '$99',
      'Unlimited emails',
      'Most popular',
      'No LabelFinder database access',
      'API access',
      '30-day money-back guarantee',
    ]) {
      expect(text).toContain(fact);
    }
    const buttons = within(pricing).getAllByRole('button', { name: 'Get Started' });
    expect(buttons).toHaveLength(3);
    for (const [index, button] of buttons.entries()) {
      button.focus();
      await user.click(button);
      expect(scrollIntoView).toHaveBeenCalledTimes(index + 1);
      expect(scrollIntoView.mock.contexts[index]).toBe(document.getElementById('waitlist-form'));
      expect(screen.getByLabelText('Email')).toHaveFocus();
    }
  });

  it('prints each plan of the plan table (schema/plans.ts): price, period, monthly emails, features and limitations', () => {
    renderLanding();
    const pricing = document.getElementById('pricing')!;
    for (const plan of plans) {
      const card = within(pricing).getByRole('heading', { name: plan.name, level: 3 }).closest('li')!;
      expect(card).toHaveTextContent(`$${plan.priceUsd} ${plan.period}`);
      const emails = plan.monthlyEmails === null ? 'Unlimited emails' : `${plan.monthlyEmails} emails per month`;
      expect(within(card).getByText(emails)).toBeInTheDocument();
      for (const feature of plan.features) expect(card).toHaveTextContent(feature);
      for (const limitation of plan.limitations) expect(within(card).getByText(limitation).closest('li')).toHaveTextContent(`Limitation: ${limitation}`);
      expect(within(card).queryByText('Most popular') !== null).toBe(plan.popular);
    }
  });

  it('has the footer links of spec §2 and the contact addresses from the config', () => {
    renderLanding();
    const footer = screen.getByRole('contentinfo');
    const href = (name: string) => within(footer).getByRole('link', { name }).getAttribute('href');
    expect(href('Features')).toBe('/#features');
    expect(href('Pricing')).toBe('/#pricing');
    expect(href('Get Started')).toBe('/auth');
    expect(href('Privacy Policy')).toBe('/privacy');
    expect(href('Terms of Service')).toBe('/terms');
    expect(href(localConfig.contactEmails.support)).toBe(`mailto:${localConfig.contactEmails.support}`);
    expect(href(localConfig.contactEmails.privacy)).toBe(`mailto:${localConfig.contactEmails.privacy}`);
  });

  it('footer Get Started goes to /auth', async () => {
    renderLanding();
    await userEvent.setup().click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Get Started' }));
    expect(screen.getByTestId('where').textContent).toBe('/auth');
  });
});

describe('landing page: beta spots', () => {
  it('shows 50 spots and the remaining count from the API', async () => {
    const { fetchImpl } = fakeApi({ spots: { total: 50, taken: 8, remaining: 42 } });
    renderLanding(fetchImpl);
    const spots = screen.getByTestId('beta-spots');
    expect(within(spots).getByText('50 spots')).toBeInTheDocument();
    expect(spots).toHaveTextContent('Checking how many spots are left');
    await waitFor(() => expect(spots).toHaveTextContent('42 of 50 spots remaining'));
    expect(spots).not.toHaveTextContent(/\b37\b/);
  });

  it('never shows fewer than 0 spots', async () => {
    const { fetchImpl } = fakeApi({ spots: { total: 50, taken: 57, remaining: -7 } });
    renderLanding(fetchImpl);
    const spots = screen.getByTestId('beta-spots');
    await waitFor(() => expect(spots).toHaveTextContent('All 50 spots are taken'));
    expect(spots.textContent).not.toMatch(/-\d/);
  });

  it('falls back to the plain claim when the count cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetchImpl } = fakeApi({ spots: { message: apiMessages.internalError }, spotsStatus: 500 });
    renderLanding(fetchImpl);
    const spots = screen.getByTestId('beta-spots');
    await waitFor(() => expect(spots).toHaveTextContent('Limited to the first 50 producers.'));
    expect(spots.textContent).not.toMatch(/\d+ of 50/);
  });
});

describe('landing page: waitlist form', () => {
  it('labels every control and offers the 13 music styles', () => {
    renderLanding();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Artist Name')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('SoundCloud/Spotify Link')).toHaveAttribute('type', 'url');
    expect(screen.getByLabelText('Why are you interested?')).toHaveAttribute('maxLength', '200');
    const options = within(screen.getByLabelText('Music Style'))
      .getAllByRole('option')
      .map((option) => option.getAttribute('value'));
    expect(options.filter(Boolean)).toEqual([...MUSIC_STYLES]);
    expect(screen.getByRole('button', { name: 'Join the Beta' })).toBeInTheDocument();
  });

  it("refuses a form without the required fields: 'Please fill in all required fields'", async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    renderLanding(api.fetchImpl);
    await user.click(screen.getByRole('button', { name: 'Join the Beta' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all required fields');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Email')).toHaveFocus();
    await user.type(screen.getByLabelText('Email'), 'nova@example.com');
    await user.click(screen.getByRole('button', { name: 'Join the Beta' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all required fields');
    expect(screen.getByLabelText('Artist Name')).toHaveFocus();
    expect(api.joins).toHaveLength(0);
  });

  it('refuses a link that is not a website before sending', async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    renderLanding(api.fetchImpl);
    await fillRequired(user);
    await user.type(screen.getByLabelText('SoundCloud/Spotify Link'), 'javascript:alert(1)');
    await user.click(screen.getByRole('button', { name: 'Join the Beta' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a link such as https://soundcloud.com/yourname');
    expect(api.joins).toHaveLength(0);
  });

  it.each([
    ['a zero-width space', 'nova\u200b@example.com', 'Email contains an invisible or control character.'],
    ['NUL', 'nova\u0000@example.com', 'Email contains an invisible or control character.'],
    ['a no-break space', 'nova\u00a0pulse@example.com', 'Email contains an invisible or control character.'],
    ['a lone surrogate', 'nova\ud800@example.com', 'Email contains an invisible or control character.'],
    ['no domain', 'nova@example', 'Enter a valid email address'],
  ])('refuses an email with %s before sending, with the message the server gives', async (_case, email, message) => {
    const api = fakeApi();
    const user = userEvent.setup();
    renderLanding(api.fetchImpl);
    await fillRequired(user);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
    await user.click(screen.getByRole('button', { name: 'Join the Beta' }));
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(api.joins).toHaveLength(0);
  });

  it('counts the reason live and caps it at 200 characters', async () => {
    const user = userEvent.setup();
    renderLanding();
    const why = screen.getByLabelText('Why are you interested?');
    expect(screen.getByText('0/200')).toBeInTheDocument();
    await user.type(why, 'Pitching');
    expect(screen.getByText('8/200')).toBeInTheDocument();
    expect(why).toHaveAccessibleDescription('8/200');
    fireEvent.change(why, { target: { value: 'x'.repeat(250) } });
    expect(why).toHaveValue('x'.repeat(200));
    expect(screen.getByText('200/200')).toBeInTheDocument();
  });

  it("shows 'Joining Beta...' while busy, then 'You're In The Beta' and an empty form", async () => {
    let answer: (response: Response) => void = () => {};
    const api = fakeApi({ join: () => new Promise<Response>((resolve) => (answer = resolve)) });
    const user = userEvent.setup();
    renderLanding(api.fetchImpl);
    await fillRequired(user);
    await user.type(screen.getByLabelText('SoundCloud/Spotify Link'), 'https://soundcloud.com/nova-pulse');
    await user.type(screen.getByLabelText('Why are you interested?'), '  I pitch every EP by hand. ');
    await user.click(screen.getByRole('button', { name: 'Join the Beta' }));
    const busy = await screen.findByRole('button', { name: 'Joining Beta...' });
    expect(busy).toBeDisabled();
    expect(api.joins).toEqual([
      {
        email: 'nova@example.com',
        artist_name: 'Nova Pulse',
        music_style: 'Deep House',
        soundcloud_spotify_url: 'https://soundcloud.com/nova-pulse',
        why_interested: 'I pitch every EP by hand.',
      },
    ]);
    await act(() => {
      answer(json({ id: 'e1' }, 201));
      return Promise.resolve();
    });
    expect(await screen.findByRole('heading', { name: "You're In The Beta" })).toBeInTheDocument();
    const confirmation = screen.getByRole('heading', { name: "You're In The Beta" }).closest('[role="status"]') as HTMLElement;
    expect(confirmation).toHaveTextContent(/Nova Pulse.*nova@example\.com within 24-48 hours/);
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: "You're In The Beta" })).toHaveFocus());
    // The spots are counted again after joining.
    await waitFor(() => expect(api.fetchImpl.mock.calls.filter(([url]) => url === '/api/waitlist/spots')).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Add another artist' }));
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Artist Name')).toHaveValue('');
    expect(screen.getByLabelText('Music Style')).toHaveValue('');
    expect(screen.getByLabelText('SoundCloud/Spotify Link')).toHaveValue('');
    expect(screen.getByLabelText('Why are you interested?')).toHaveValue('');
    expect(screen.getByText('0/200')).toBeInTheDocument();
  });

  it('sends only the required fields when the optional ones are empty', async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    renderLanding(api.fetchImpl);
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Join the Beta' }));
    await screen.findByRole('heading', { name: "You're In The Beta" });
    expect(api.joins).toEqual([{ email: 'nova@example.com', artist_name: 'Nova Pulse', music_style: 'Deep House' }]);
  });

  it.each([
    ['a duplicate email (409)', json({ message: 'whatever the server says' }, 409), [WAITLIST_TEXT.duplicate]],
    ['the throttle (429)', json({ message: gatewayMessages.tooManyRequests }, 429), [WAITLIST_TEXT.throttled]],
    [
      "the client's own limit (429 client_limit)",
      json({ message: 'Too many waitlist sign-ups from your network. Please try again in 15 minutes.', code: CLIENT_LIMIT_CODE }, 429),
      ['Too many waitlist sign-ups from your network. Please try again in 15 minutes.'],
    ],
    ['a refused value (400)', json({ message: `email: ${waitlistMessages.badEmail}` }, 400), [waitlistMessages.badEmail]],
    ['a server failure (500)', json({ message: apiMessages.internalError }, 500), ['Something went wrong', 'Please try again or contact support']],
  ] as const)('after %s it shows the right text and keeps everything typed', async (_case, response, texts) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi({ join: () => response.clone() });
    const user = userEvent.setup();
    renderLanding(api.fetchImpl);
    await fillRequired(user);
    await user.type(screen.getByLabelText('Why are you interested?'), 'Because.');
    await user.click(screen.getByRole('button', { name: 'Join the Beta' }));
    const alert = await screen.findByRole('alert');
    for (const text of texts) expect(within(alert).getByText(text)).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('nova@example.com');
    expect(screen.getByLabelText('Artist Name')).toHaveValue('Nova Pulse');
    expect(screen.getByLabelText('Music Style')).toHaveValue('Deep House');
    expect(screen.getByLabelText('Why are you interested?')).toHaveValue('Because.');
    expect(screen.getByRole('button', { name: 'Join the Beta' })).toBeEnabled();
  });

  it('treats a network failure as a generic failure and keeps the values', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi({
      join: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const user = userEvent.setup();
    renderLanding(api.fetchImpl);
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Join the Beta' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Something went wrong')).toBeInTheDocument();
    expect(within(alert).getByText('Please try again or contact support')).toBeInTheDocument();
    expect(within(alert).getByRole('link', { name: localConfig.contactEmails.support })).toBeInTheDocument();
    expect(screen.getByLabelText('Artist Name')).toHaveValue('Nova Pulse');
  });
});
