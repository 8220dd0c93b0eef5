import { expect, test } from '@playwright/test';
import type { DirectoryEntry } from '../../schema/api/directory';
import { completedCampaignOutbox, connectLocalMailbox, ok } from './artistApi';
import { checkPage, settled } from './axe';
import { fillTrackDetails, idTokenFor, newUser, previewForAll, signedIn } from './helpers';

/**
 * The pre-send check (issue 28 §2) against the local stack: two labels of LabelFinder's seeded directory
 * added to the contacts with their demo policies, one taking demos only through its web form, one taking
 * private streaming links only. A campaign linking a public SoundCloud page to both: the preview warns of
 * each, the send dialog leaves the form-only label out by default and offers the other the private listen
 * page; sent, the outbox has no email to the form-only label. axe finds nothing serious on either.
 */

const TRACK_URL = 'https://soundcloud.com/nova-pulse/harbour-lights';

test('a form-only label is left out by default and a private-links-only label is offered the listen page', async ({
  page,
  context,
  baseURL,
  playwright,
}, testInfo) => {
  test.setTimeout(180_000);
  const user = await signedIn(page, baseURL!, newUser('presend'));
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${await idTokenFor(user)}` } });
  await context.route('https://soundcloud.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Harbour Lights</title>' }));
  try {
    await ok(api.patch('/api/profile', { data: { artist_name: 'Nova Pulse' } }));
    await connectLocalMailbox(api, baseURL!);
    // Two seeded labels, found by their policies: a web form, and email with private links only (no other rule to warn of).
    const { entries } = (await ok(api.get('/api/directory'))) as { entries: DirectoryEntry[] };
    const formOnly = entries.find((entry) => entry.email && entry.demo_policy?.submit_by === 'web_form');
    const privateOnly = entries.find(({ email, demo_policy: policy }) =>
      Boolean(
        email &&
        policy?.submit_by === 'email' &&
        policy.private_streaming_only &&
        !policy.download_wanted &&
        !policy.unreleased_only &&
        policy.max_email_words === null &&
        policy.genres.length === 0,
      ),
    );
    expect(formOnly, 'a seeded form-only label').toBeDefined();
    expect(privateOnly, 'a seeded private-links-only label').toBeDefined();
    await ok(api.post('/api/directory/contacts', { data: { entry_ids: [formOnly!.id, privateOnly!.id] } }));

    await page.goto('/dashboard/compose');
    await fillTrackDetails(page, { name: 'Harbour Lights', url: TRACK_URL });
    await previewForAll(page, { selected: 2, timeout: 30_000 });

    // The preview: each recipient's warnings, the form-only label's with a link to its form.
    const preview = page.locator('[data-testid="pre-send-warnings"]');
    const shown = new Map<string, string>();
    for (let n = 0; n < 2; n++) {
      if (n > 0) await page.getByRole('button', { name: 'Next recipient' }).click();
      await expect(preview).toBeVisible();
      const isForm = await page.getByText(`${formOnly!.name} <${formOnly!.email}>`, { exact: true }).isVisible();
      shown.set(isForm ? 'form' : 'private', (await preview.textContent()) ?? '');
      if (isForm) {
        await expect(preview.getByRole('link', { name: /Open their form/ })).toHaveAttribute('href', formOnly!.demo_policy!.submit_url!);
        await settled(page);
        await checkPage(page, testInfo, 'compose pre-send preview');
      } else {
        await expect(preview.getByRole('button', { name: 'Use the private listen page' })).toBeVisible();
      }
    }
    expect(shown.get('form')).toContain('Takes demos only through their web form, not by email.');
    expect(shown.get('private')).toContain('Takes private streaming links only, and this email links a public streaming page.');

    // The send dialog: the form-only label left out unless 'Send anyway'; the other offered the listen page.
    await page.getByRole('button', { name: 'Send Campaign', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Campaign' });
    await expect(dialog.getByText('Pre-send check: 2 recipients with warnings')).toBeVisible();
    const rows = dialog.getByRole('list', { name: 'Recipients with warnings' });
    const formRow = rows.getByRole('listitem', { name: formOnly!.name });
    const privateRow = rows.getByRole('listitem', { name: privateOnly!.name });
    await expect(formRow.getByRole('checkbox', { name: 'Send anyway' })).not.toBeChecked();
    await expect(privateRow.getByRole('button', { name: 'Use the private listen page' })).toBeVisible();
    await expect(dialog.getByTestId('left-out-count')).toHaveText('1');
    await expect(dialog.getByTestId('requested-count')).toHaveText('1');
    await settled(page);
    // axe reads a label scrolled out of the dialog's body as no label (label-title-only on 'When to send'):
    // the whole dialog is checked with its radios in view.
    await dialog.getByRole('radio', { name: 'Send now' }).scrollIntoViewIfNeeded();
    await checkPage(page, testInfo, 'compose pre-send dialog');

    await dialog.getByRole('button', { name: 'Start Sending' }).click();
    await expect(page.getByText('Campaign Started!')).toBeVisible({ timeout: 30_000 });
    const { campaigns } = (await ok(api.get('/api/campaigns'))) as { campaigns: { id: string; status: string; total_queued: number }[] };
    const campaign = campaigns[0]!;
    expect(campaign.total_queued).toBe(1);
    const outbox = await completedCampaignOutbox(api, campaign.id);
    // 'Name <address>': one email, to the private-links label; none to the form-only label.
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.to.toLowerCase()).toContain(`<${privateOnly!.email.toLowerCase()}>`);
    expect(outbox.filter((message) => message.to.toLowerCase().includes(formOnly!.email.toLowerCase()))).toEqual([]);
  } finally {
    await api.dispose();
  }
});
