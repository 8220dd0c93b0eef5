import { expect, test, type Page } from '@playwright/test';
import { completedCampaignOutbox, connectLocalMailbox, draftOfUploadedTrack, ok, until, uploadTrack } from './artistApi';
import { checkPage, settled } from './axe';
import { fillTrackDetails, idTokenFor, newUser, previewForAll, signedIn, toast } from './helpers';

/**
 * The pipeline of a track (issue 28 §1, §3) against the local stack: one uploaded track pitched to four
 * contacts; Ana answers Interested and Ben Not for us on their listen pages; the artist marks Cleo Signed
 * on the track's board (by keyboard); Dee did nothing. The Tracks page counts them, the board and its table
 * show each in their stage, the Dashboard shows Ana's to-do until it is marked done, and Ana's contact
 * card shows the track's stage; a second campaign with the track warns of Ben's pass and skips him. axe
 * over each new page.
 */

const TRACK_NAME = 'Harbour Lights';
const ana = { name: 'Ana Vogel', email: 'ana@deeprecords.example', label_name: 'Deep Records', contact_type: 'Label' };
const ben = { name: 'Ben Ortiz', email: 'ben@nightowl.example', label_name: 'Night Owl', contact_type: 'Label' };
const cleo = { name: 'Cleo Brandt', email: 'cleo@basement.example', label_name: 'Basement', contact_type: 'Label' };
const dee = { name: 'Dee Marsh', email: 'dee@marsh.example', label_name: 'Marsh Audio', contact_type: 'DJ' };
/** Added before the second campaign: never pitched the track. */
const eve = { name: 'Eve Lind', email: 'eve@lindsound.example', label_name: 'Lind Sound', contact_type: 'Label' };

interface OutboxSummary {
  id: string;
  to: string;
  campaign_id: string;
}

/** A stage's column on the board. */
const column = (page: Page, stage: string) => page.getByTestId('pipeline-board').getByRole('region', { name: stage, exact: true });

test('a track pitched to four: answers and a mark put each in its stage, the Dashboard shows the to-do', async ({
  page,
  baseURL,
  playwright,
  isMobile,
}, testInfo) => {
  test.setTimeout(180_000);
  const user = await signedIn(page, baseURL!, newUser('pipeline'));
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${await idTokenFor(user)}` } });
  try {
    await ok(api.patch('/api/profile', { data: { artist_name: 'Nova Pulse' } }));
    const ids: string[] = [];
    for (const contact of [ana, ben, cleo, dee]) ids.push(((await ok(api.post('/api/contacts', { data: contact }), 201)) as { id: string }).id);
    await connectLocalMailbox(api, baseURL!);
    const trackId = await uploadTrack(api, `${TRACK_NAME}.wav`);
    const draft = { id: await draftOfUploadedTrack(api, { trackName: TRACK_NAME, trackId, recipients: ids.length }) };
    await ok(api.post(`/api/campaigns/${draft.id}/send`, { data: { contact_ids: ids, mode: 'immediate', batch_start: 0, total: ids.length } }));
    const outbox = async () => ((await ok(api.get('/api/local/outbox'))) as { messages: OutboxSummary[] }).messages.filter((m) => m.campaign_id === draft.id);
    const sent = await until(outbox, (messages) => messages.length === 4, 'the four emails', 60_000);

    // Ana and Ben answer on their own listen pages.
    for (const [contact, answer] of [
      [ana, 'Interested'],
      [ben, 'Not for us'],
    ] as const) {
      const message = (await ok(api.get(`/api/local/outbox/${sent.find((m) => m.to.includes(contact.email))!.id}`))) as { html: string };
      const link = /href="([^"]+\/api\/t\/c\/[^"]+)"/.exec(message.html)![1]!.replace(/&amp;/g, '&');
      await page.goto(new URL(link).pathname);
      await expect(page.getByRole('heading', { level: 1, name: TRACK_NAME })).toBeVisible();
      await page.getByRole('button', { name: answer, exact: true }).click();
      await expect(page.getByText('Thanks, your answer was sent to the artist.')).toBeVisible();
    }

    // The Tracks page counts them.
    await page.goto('/dashboard');
    if (isMobile) await page.getByRole('button', { name: 'Open navigation' }).first().click();
    await page.getByRole('link', { name: 'Tracks', exact: true }).last().click();
    await expect(page.getByRole('heading', { name: 'Tracks', level: 1 })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: TRACK_NAME });
    // Track, Pitched, Opened, Listened, Answered, Interested, Send me the WAVs, Not for us, Signed, Passed.
    const cells = row.locator('td, th');
    await expect(cells.nth(1)).toHaveText('4');
    await expect(cells.nth(4)).toHaveText('2');
    await expect(cells.nth(5)).toHaveText('1');
    await expect(cells.nth(7)).toHaveText('1');
    await settled(page);
    await checkPage(page, testInfo, 'tracks');

    // The board: Ana and Ben answered, Cleo and Dee pitched.
    await row.getByRole('link', { name: TRACK_NAME }).click();
    await expect(page.getByRole('heading', { name: TRACK_NAME, level: 1 })).toBeVisible();
    await expect(column(page, 'Answered').getByText(ana.name)).toBeVisible();
    await expect(column(page, 'Answered').getByText(ben.name)).toBeVisible();
    await expect(column(page, 'Answered').getByText('Answer: Not for us')).toBeVisible();

    // The artist marks Cleo Signed, by keyboard.
    await page.getByRole('button', { name: `Move ${cleo.name}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Move ${cleo.name}` });
    await expect(dialog.getByRole('radio', { name: 'Signed' })).toBeChecked();
    await dialog.getByRole('textbox', { name: /Note/ }).fill('EP in March');
    await dialog.getByRole('button', { name: 'Move', exact: true }).press('Enter');
    await expect(toast(page, `${cleo.name}: Signed`)).toBeVisible();
    await expect(column(page, 'Signed').getByText(cleo.name)).toBeVisible();
    await expect(column(page, 'Signed').getByText(/Signed by you on .* · From events: /)).toBeVisible();
    const stillPitched = column(page, 'Opened').or(column(page, 'Pitched'));
    await expect(stillPitched.getByText(dee.name)).toBeVisible();
    await checkPage(page, testInfo, 'track board');

    // The table: the same four.
    await page.getByRole('tab', { name: 'Table' }).click();
    const table = page.getByRole('table', { name: 'Contacts pitched with this track' });
    await expect(table.getByRole('row')).toHaveCount(5);
    await expect(table.getByRole('row').filter({ hasText: cleo.email })).toContainText('Signed by you on');
    await checkPage(page, testInfo, 'track table');
    // Phones: nothing scrolls sideways on the board's page.
    await page.getByRole('tab', { name: 'Board' }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    // The Dashboard: Ana's Interested is a to-do until marked done.
    await page.goto('/dashboard');
    const todos = page.getByRole('list', { name: 'To-dos' });
    await expect(todos.getByRole('listitem')).toHaveCount(1);
    await expect(todos).toContainText(`${ana.name} (${ana.email}) answered Interested on ${TRACK_NAME}`);
    await settled(page);
    await checkPage(page, testInfo, 'dashboard with to-dos');
    await todos.getByRole('button', { name: `Mark done: ${ana.name}, ${TRACK_NAME}` }).click();
    await expect(page.getByRole('heading', { name: /^To-dos/ })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await settled(page);
    await expect(page.getByRole('heading', { name: /^To-dos/ })).toHaveCount(0);

    // Ben's contact card: the track and its stage.
    await page.goto('/dashboard/contacts');
    await page.getByRole('button', { name: `Tracks pitched to ${ben.name} (${ben.email})` }).click();
    await expect(page.getByRole('list', { name: `Tracks pitched to ${ben.name}` })).toContainText(TRACK_NAME);

    // A new campaign with the same track, to everyone and a new contact: the send dialog warns of Ben's
    // pass and leaves him out; the three others already pitched are skipped; only Eve gets it. (Compose on a
    // phone has its own tests; the phone run of this one is for the pipeline's pages.)
    if (isMobile) return;
    await ok(api.post('/api/contacts', { data: eve }), 201);
    await page.goto('/dashboard/compose');
    await fillTrackDetails(page, { name: TRACK_NAME, uploaded: new RegExp(TRACK_NAME) });
    // The recipients picker says it before anything is sent.
    const recipients = page.getByRole('group', { name: 'Recipients' });
    await expect(recipients.getByText(`Passed on ${TRACK_NAME} on `)).toHaveCount(1);
    await expect(recipients.getByText('Already received this track')).toHaveCount(3);
    await previewForAll(page, { selected: 5, timeout: 30_000 });
    await page.getByRole('button', { name: 'Send Campaign', exact: true }).click();
    const send = page.getByRole('dialog', { name: 'Send Campaign' });
    const benRow = send.getByRole('list', { name: 'Recipients with warnings' }).getByRole('listitem', { name: ben.name });
    await expect(benRow).toContainText(`Passed on ${TRACK_NAME} on `);
    await expect(benRow.getByRole('checkbox', { name: 'Send anyway' })).not.toBeChecked();
    await expect(send.getByTestId('requested-count')).toHaveText('1');
    await send.getByRole('button', { name: 'Start Sending' }).click();
    await expect(page.getByText('Campaign Started!')).toBeVisible({ timeout: 30_000 });
    const { campaigns } = (await ok(api.get('/api/campaigns'))) as { campaigns: { id: string }[] };
    const again = campaigns.find((campaign) => campaign.id !== draft.id)!;
    const secondOutbox = await completedCampaignOutbox(api, again.id);
    expect(secondOutbox.map((message) => message.to)).toEqual([expect.stringContaining(`<${eve.email}>`)]);
  } finally {
    await api.dispose();
  }
});
