import { expect, test } from '@playwright/test';
import { connectLocalMailbox, ok, startCampaign, until } from './artistApi';
import { idTokenFor, newUser, signedIn } from './helpers';

/**
 * One failing recipient never holds the others (issue 23): the local mailbox answers `unavailable@fail.test`
 * as Gmail's 503 would. It is first in the queue; the two after it go out at the stack's pace (one a
 * second) while it waits alone for its one-minute back-off, and the campaign's page says so.
 */
const contacts = [
  { name: 'Down Mailbox', email: 'unavailable@fail.test', label_name: 'Nowhere Records', contact_type: 'Label' },
  { name: 'Mara Velvet', email: 'mara@velvet-records.example', label_name: 'Velvet Records', contact_type: 'Label' },
  { name: 'Theo Kern', email: 'theo@kern-sound.example', label_name: 'Kern Sound', contact_type: 'DJ' },
] as const;

test('a recipient whose mailbox answers 503 waits alone: the others are sent, and the campaign says when it is retried', async ({
  page,
  baseURL,
  playwright,
}) => {
  test.setTimeout(90_000);
  const user = await signedIn(page, baseURL!, newUser('retry'));
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${await idTokenFor(user)}` } });
  try {
    const ids: string[] = [];
    for (const contact of contacts) ids.push(((await ok(api.post('/api/contacts', { data: contact }), 201)) as { id: string }).id);
    await connectLocalMailbox(api, baseURL!);
    const campaignId = await startCampaign(api, { trackName: 'Midnight Drive', contactIds: ids });
    // The two after the failing one reach the outbox within seconds, not after its back-off.
    await until(
      async () => ((await ok(api.get('/api/local/outbox'))) as { messages: { campaign_id: string }[] }).messages.filter((m) => m.campaign_id === campaignId),
      (messages) => messages.length === 2,
      'the two good emails in the outbox',
      20_000,
    );

    await page.goto(`/dashboard/campaigns/${campaignId}`);
    await expect(page.getByRole('heading', { name: 'Midnight Drive', level: 1 })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Total Sent', exact: true })).toContainText('2');
    const emails = page.getByRole('listitem');
    await expect(emails.filter({ hasText: 'mara@velvet-records.example' }).getByText('Sent', { exact: true })).toBeVisible();
    await expect(emails.filter({ hasText: 'theo@kern-sound.example' }).getByText('Sent', { exact: true })).toBeVisible();
    const waiting = emails.filter({ hasText: 'unavailable@fail.test' });
    await expect(waiting.getByText('Pending', { exact: true })).toBeVisible();
    await expect(waiting.getByText(/^Retrying at .+ \(attempt 2 of 5\): The local mailbox is unavailable right now \(simulated\)$/)).toBeVisible();
  } finally {
    await api.dispose();
  }
});
