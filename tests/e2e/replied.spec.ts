import { expect, test } from '@playwright/test';
import { connectLocalMailbox, ok, sendCampaign } from './artistApi';
import { idTokenFor, newUser, signedIn } from './helpers';

/**
 * The artist's "Replied" mark (issue 27 §1: gmail.send cannot read replies) against the local stack: a
 * campaign of 2 sent through the local mailbox; on the campaign page the artist marks Mara's email
 * replied; the contact's card on the Contacts page shows that email as Replied (and Theo's stays unmarked).
 */

const TRACK_NAME = 'Harbour Lights';
const mara = { name: 'Mara Velvet', email: 'mara@velvet-records.example', label_name: 'Velvet Records', contact_type: 'Label' };
const theo = { name: 'Theo Kern', email: 'theo@kern-sound.example', label_name: 'Kern Sound', contact_type: 'DJ' };

test('marks an email replied on the campaign page and sees it on the contact’s card', async ({ page, baseURL, playwright }) => {
  test.setTimeout(120_000);
  const user = await signedIn(page, baseURL!, newUser('replied'));
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${await idTokenFor(user)}` } });
  let campaignId: string;
  try {
    const ids: string[] = [];
    for (const contact of [mara, theo]) ids.push(((await ok(api.post('/api/contacts', { data: contact }), 201)) as { id: string }).id);
    await connectLocalMailbox(api, baseURL!);
    ({ campaignId } = await sendCampaign(api, { trackName: TRACK_NAME, contactIds: ids }));
  } finally {
    await api.dispose();
  }

  await page.goto(`/dashboard/campaigns/${campaignId}`);
  const sentEmails = page.getByRole('list', { name: 'Sent Emails' });
  const maraRow = sentEmails.getByRole('listitem').filter({ hasText: mara.email });
  await maraRow.getByRole('button', { name: 'Mark as replied' }).click();
  await expect(maraRow.getByText('Replied', { exact: true })).toBeVisible();
  await expect(maraRow.getByRole('button', { name: 'Undo replied' })).toBeVisible();
  await expect(sentEmails.getByRole('listitem').filter({ hasText: theo.email }).getByRole('button', { name: 'Mark as replied' })).toBeVisible();

  // Still marked after a reload: it was stored.
  await page.reload();
  await expect(
    page.getByRole('list', { name: 'Sent Emails' }).getByRole('listitem').filter({ hasText: mara.email }).getByText('Replied', { exact: true }),
  ).toBeVisible();

  await page.goto('/dashboard/contacts');
  await page.getByRole('button', { name: `Emails sent to ${mara.name} (${mara.email})` }).click();
  const maraEmails = page.getByRole('list', { name: `Emails sent to ${mara.name}` });
  await expect(maraEmails.getByRole('listitem')).toHaveCount(1);
  await expect(maraEmails.getByText(TRACK_NAME, { exact: true })).toBeVisible();
  await expect(maraEmails.getByText('Replied', { exact: true })).toBeVisible();
  await expect(maraEmails.getByRole('button', { name: 'Undo replied' })).toBeVisible();

  await page.getByRole('button', { name: `Emails sent to ${theo.name} (${theo.email})` }).click();
  await expect(page.getByRole('list', { name: `Emails sent to ${theo.name}` }).getByRole('button', { name: 'Mark as replied' })).toBeVisible();
});
