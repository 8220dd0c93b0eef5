import { expect, test } from '@playwright/test';
import { connectLocalMailbox, draftOfUploadedTrack, ok, until, uploadTrack } from './artistApi';
import { idTokenFor, newUser, signedIn } from './helpers';

/**
 * Follow-ups (issue 27 §3) against the local stack, whose follow-up day lasts E2E_FOLLOW_UP_DAY_SECONDS:
 * a campaign of 3 with an uploaded track, given one step ("after 1 day", the artist's own text) in
 * Compose's Follow-ups and sent from Compose. Ana answers on her listen page, the artist marks Ben's email
 * Replied on the campaign page, Cleo does nothing: only Cleo gets the step, in her first email's thread
 * (the outbox groups the two and shows the step's "Re:" subject and In-Reply-To), and the campaign page
 * says why Ana and Ben got none.
 */

const TRACK_NAME = 'Harbour Lights';
const ana = { name: 'Ana Vogel', email: 'ana@deeprecords.example', label_name: 'Deep Records', contact_type: 'Label' };
const ben = { name: 'Ben Ortiz', email: 'ben@nightowl.example', label_name: 'Night Owl', contact_type: 'Label' };
const cleo = { name: 'Cleo Brandt', email: 'cleo@basement.example', label_name: 'Basement', contact_type: 'DJ' };
const STEP_TEXT = 'Hi [FIRST_NAME], a gentle nudge about [TRACK_NAME]: [TRACK_URL]';

interface OutboxSummary {
  id: string;
  to: string;
  subject: string;
  campaign_id: string;
  thread_id: string;
}

test('a follow-up goes only to the recipient who did nothing, in the same thread, and the campaign says why', async ({ page, baseURL, playwright }) => {
  const daySeconds = Number(process.env.E2E_FOLLOW_UP_DAY_SECONDS);
  expect(daySeconds, 'the stack’s follow-up day (globalSetup)').toBeGreaterThan(0);
  test.setTimeout(120_000 + daySeconds * 2_000);
  const user = await signedIn(page, baseURL!, newUser('follow-ups'));
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${await idTokenFor(user)}` } });
  try {
    await ok(api.patch('/api/profile', { data: { artist_name: 'Nova Pulse' } }));
    for (const contact of [ana, ben, cleo]) await ok(api.post('/api/contacts', { data: contact }), 201);
    await connectLocalMailbox(api, baseURL!);
    const trackId = await uploadTrack(api, `${TRACK_NAME}.wav`);
    // The draft as Compose saves it, opened in Compose ('Continue in Compose'), where the artist adds the step.
    const draft = { id: await draftOfUploadedTrack(api, { trackName: TRACK_NAME, trackId, recipients: 3 }) };

    await page.goto(`/dashboard/compose?draft=${draft.id}`);
    await page.getByRole('button', { name: 'Select All', exact: true }).click();
    await expect(page.getByText('3 contacts match your filters (3 selected)')).toBeVisible();
    const followUps = page.getByRole('region', { name: 'Follow-up 1' });
    await page.getByRole('checkbox', { name: 'Send follow-ups' }).check();
    await page.getByRole('spinbutton', { name: 'Follow-up 1: after (days)' }).fill('1');
    await followUps.getByRole('radio', { name: 'My own text' }).check();
    await followUps.getByRole('textbox', { name: 'Text' }).fill(STEP_TEXT);
    await page.getByRole('button', { name: 'Send Campaign', exact: true }).click();
    await page.getByRole('dialog', { name: 'Send Campaign' }).getByRole('button', { name: 'Start Sending' }).click();
    await expect(page.getByText('Campaign Started!')).toBeVisible({ timeout: 30_000 });

    const outbox = async () => ((await ok(api.get('/api/local/outbox'))) as { messages: OutboxSummary[] }).messages.filter((m) => m.campaign_id === draft.id);
    const firsts = await until(outbox, (messages) => messages.length === 3, 'the three first emails', 60_000);
    const firstTo = (email: string) => firsts.find((message) => message.to.includes(email))!;

    // Ana follows her email's link to her listen page and answers (a desktop browser: a person, not a machine).
    const message = (await ok(api.get(`/api/local/outbox/${firstTo(ana.email).id}`))) as { html: string };
    const link = /href="([^"]+\/api\/t\/c\/[^"]+)"/.exec(message.html)![1]!.replace(/&amp;/g, '&');
    await page.goto(new URL(link).pathname);
    await expect(page.getByRole('heading', { level: 1, name: TRACK_NAME })).toBeVisible();
    await page.getByRole('button', { name: 'Interested' }).click();
    await expect(page.getByText('Thanks, your answer was sent to the artist.')).toBeVisible();

    // The artist marks Ben's email Replied on the campaign page.
    await page.goto(`/dashboard/campaigns/${draft.id}`);
    const sentEmails = page.getByRole('list', { name: 'Sent Emails' });
    const row = (email: string) => sentEmails.getByRole('listitem').filter({ hasText: email });
    await row(ben.email).getByRole('button', { name: 'Mark as replied' }).click();
    await expect(row(ben.email).getByText('Replied', { exact: true })).toBeVisible();

    // The step falls due a follow-up day after each first email: Cleo's goes; Ana's and Ben's are stopped.
    type Email = { recipient_email: string; follow_ups: { step: number; state: string; reason?: string }[] };
    const emails = async () => ((await ok(api.get(`/api/campaigns/${draft.id}/emails`))) as { emails: Email[] }).emails;
    const settled = await until(
      emails,
      (list) => list.every((email) => email.follow_ups.every((step) => step.state !== 'waiting')),
      'every step to be settled',
      daySeconds * 1_000 + 60_000,
    );
    const stepOf = (email: string) => settled.find((one) => one.recipient_email === email)!.follow_ups;
    expect(stepOf(ana.email)).toEqual([{ step: 1, state: 'stopped', reason: 'answered' }]);
    expect(stepOf(ben.email)).toEqual([{ step: 1, state: 'stopped', reason: 'replied' }]);
    expect(stepOf(cleo.email)).toMatchObject([{ step: 1, state: 'sent' }]);
    const all = await outbox();
    expect(all.map((m) => [ana, ben, cleo].find((c) => m.to.includes(c.email))?.email).sort()).toEqual([ana.email, ben.email, cleo.email, cleo.email].sort());
    const step = all.find((m) => m.to.includes(cleo.email) && m.id !== firstTo(cleo.email).id)!;
    expect(step.subject).toBe(`Re: ${TRACK_NAME} for ${cleo.label_name}`);
    expect(step.thread_id).toBe(firstTo(cleo.email).thread_id);

    // The campaign page says why.
    await page.reload();
    await expect(row(ana.email).getByText('Follow-up 1: Stopped — Answered on the listen page')).toBeVisible();
    await expect(row(ben.email).getByText('Follow-up 1: Stopped — Marked Replied')).toBeVisible();
    await expect(row(cleo.email).getByText(/^Follow-up 1: Sent /)).toBeVisible();

    // The outbox shows Cleo's two as one thread; the step names the first email it answers.
    await page.goto('/dashboard/outbox');
    const threads = page.getByRole('treegrid', { name: 'Sent messages' });
    const cleoThread = threads.getByRole('row').filter({ hasText: cleo.email }).filter({ hasText: '(2 messages in this thread)' });
    await expect(cleoThread).toHaveCount(1);
    await cleoThread.getByRole('link', { name: `Re: ${TRACK_NAME} for ${cleo.label_name}` }).click();
    await expect(page.getByRole('heading', { name: `Re: ${TRACK_NAME} for ${cleo.label_name}` })).toBeVisible();
    const firstHeaders = ((await ok(api.get(`/api/local/outbox/${firstTo(cleo.email).id}`))) as { headers: [string, string][] }).headers;
    const firstMessageId = firstHeaders.find(([name]) => name.toLowerCase() === 'message-id')![1];
    await expect(page.getByText(firstMessageId).first()).toBeVisible();
    await expect(page.getByText('In-Reply-To', { exact: true }).first()).toBeVisible();
  } finally {
    await api.dispose();
  }
});
