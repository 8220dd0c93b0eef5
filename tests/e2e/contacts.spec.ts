import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { signedIn, toast } from './helpers';

/** A Cloudscape Select inside the labelled form field: open it, pick the option. */
async function choose(page: Page, scope: ReturnType<Page['locator']>, field: string, option: string) {
  await scope.getByRole('button', { name: new RegExp(field) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('add, edit and delete a contact', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await page.goto('/dashboard/contacts');
  await expect(page.getByText('No contacts yet')).toBeVisible();

  await page.getByRole('button', { name: 'Add Your First Contact' }).click();
  const form = page.getByRole('form', { name: 'Add New Contact' });
  // The client check of spec §5, before anything is sent.
  await form.getByRole('button', { name: 'Save Contact' }).click();
  await expect(form.getByText('Please fill in name and email fields.').first()).toBeVisible();
  await form.getByLabel('Full Name *').fill('Mara Velvet');
  await form.getByLabel('Email *').fill('mara@velvet-records.example');
  await form.getByLabel('Label/Company (Optional)').fill('Velvet Records');
  await choose(page, form, 'Contact Type', 'DJ');
  await form.getByLabel('Position').fill('A&R Manager');
  await form.getByLabel('Genre').fill('Techno, Minimal');
  await form.getByLabel('Notes').fill('Met at ADE; prefers private SoundCloud links.');
  await form.getByRole('button', { name: 'Save Contact' }).click();
  await expect(toast(page, 'Contact added!')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Contacts (1)' })).toBeVisible();
  await expect(page.getByText('mara@velvet-records.example')).toBeVisible();
  await expect(page.getByText('Velvet Records', { exact: true })).toBeVisible();

  // Edit: a new address moves the contact (its id is derived from the address); the card follows.
  await page.getByRole('button', { name: /^Edit Mara Velvet/ }).click();
  const edit = page.getByRole('form', { name: 'Edit Contact' });
  await expect(edit.getByLabel('Email *')).toHaveValue('mara@velvet-records.example');
  await edit.getByLabel('Email *').fill('mara.v@velvet-records.example');
  await edit.getByLabel('Position').fill('Label Manager');
  await edit.getByRole('button', { name: 'Update Contact' }).click();
  await expect(toast(page, 'Contact updated!')).toBeVisible();
  await expect(page.getByText('mara.v@velvet-records.example')).toBeVisible();
  await expect(page.getByText('Label Manager', { exact: true })).toBeVisible();

  // The server keeps one contact per address: adding the same one again is refused with its message.
  await page.getByRole('button', { name: 'Add Contact', exact: true }).click();
  const again = page.getByRole('form', { name: 'Add New Contact' });
  await again.getByLabel('Full Name *').fill('Mara again');
  await again.getByLabel('Email *').fill('MARA.V@velvet-records.example');
  await again.getByRole('button', { name: 'Save Contact' }).click();
  await expect(again.getByText('A contact with this email already exists.').first()).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();

  await page.reload();
  await expect(page.getByText('mara.v@velvet-records.example')).toBeVisible();
  await page.getByRole('button', { name: /^Delete Mara Velvet/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Contacts' });
  await expect(dialog).toContainText('You are about to delete 1 contact. This action cannot be undone.');
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toast(page, 'Contact deleted')).toBeVisible();
  await expect(page.getByText('No contacts yet')).toBeVisible();
  await page.reload();
  await expect(page.getByText('No contacts yet')).toBeVisible();
});

/**
 * A file as Excel in a European locale saves it: BOM, semicolons, CRLF, a quoted cell holding the
 * delimiter and a line break, a repeated address in another case, mixed type spellings, a blank line,
 * and one bad address (record 7), which is skipped while the other rows go in.
 */
const messyCsv =
  '\uFEFFE-mail;Contact Name;Company;Type;Music Style\r\n' +
  'ana@copper-tone.example; Ana Ruiz ;Copper Tone;dj;"Techno; Minimal"\r\n' +
  'ben@static-hall.example;Ben Ode;"Static\r\nHall";LABEL;House\r\n' +
  '\r\n' +
  'ANA@copper-tone.example;Ana R.;Copper Tone;DJ;Techno\r\n' +
  'cleo@example.org;Cleo;;fan;\r\n' +
  'not-an-email;Bad Row;;dj;House\r\n' +
  'dev@glass-label.example;Dev;Glass Label;Promoter;Deep House\r\n';

test('import a messy CSV through the mapping panel: the bad row is skipped and downloadable; importing it again adds nothing', async ({ page, baseURL }) => {
  await signedIn(page, baseURL!);
  await page.goto('/dashboard/contacts');
  await expect(page.getByText('No contacts yet')).toBeVisible();

  const upload = async () => {
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await page.getByLabel('CSV File (Max 5MB, 5000 contacts)').setInputFiles({
      name: 'contacts export.csv',
      mimeType: 'application/vnd.ms-excel',
      buffer: Buffer.from(messyCsv, 'utf8'),
    });
  };
  await upload();

  // The guess from the header, one select per column, a preview of the data rows; the bad row named before import.
  const readyAndSkipped = page.getByText('4 ready, 1 will be skipped', { exact: true });
  await expect(readyAndSkipped).toBeVisible();
  await expect(page.getByText('Ready to import')).toHaveCount(0);
  await expect(page.getByText('Row 7: Invalid email format: not-an-email')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'First row contains headers' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Remove duplicate emails' })).toBeChecked();
  const preview = page.getByRole('table', { name: 'CSV preview' });
  await expect(preview).toContainText('ben@static-hall.example');
  await expect(preview).toContainText('Techno; Minimal');
  // Unmapping the email column blocks the import; mapping it back allows it.
  await choose(page, page.locator('body'), 'E-mail', 'Skip This Column');
  await expect(page.getByText('Please map at least one column to "Email Address"')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import Contacts' })).toBeDisabled();
  await choose(page, page.locator('body'), 'E-mail', 'Email Address *');
  await expect(readyAndSkipped).toBeVisible();

  await page.getByRole('button', { name: 'Import Contacts' }).click();
  await expect(toast(page, 'Import successful! Imported 4 contacts successfully. 0 duplicates skipped.')).toBeVisible();
  // The skipped row stays listed after the import, and downloads as CSV with the file's columns and a reason.
  await expect(page.getByText('1 row was not imported.')).toBeVisible();
  await expect(page.getByText('Row 7: Invalid email format: not-an-email')).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download skipped rows (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('contacts export-skipped-rows.csv');
  expect(await readFile(await download.path(), 'utf8')).toBe(
    '\uFEFFE-mail;Contact Name;Company;Type;Music Style;Reason\r\nnot-an-email;Bad Row;;dj;House;Row 7: Invalid email format: not-an-email',
  );
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('1 row was not imported.')).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Contacts (4)' })).toBeVisible();
  await expect(page.getByText('Ana Ruiz', { exact: true })).toBeVisible(); // trimmed, first of the repeated address
  await expect(page.getByText('ben@static-hall.example')).toBeVisible();

  // Types mapped case-insensitively; anything else is a Label.
  await expect(page.getByRole('checkbox', { name: /^DJ \(1\)/ })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /^Label \(2\)/ })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /^Fan \(1\)/ })).toBeVisible();

  // The same file again: everything exists already.
  await upload();
  await expect(readyAndSkipped).toBeVisible();
  await page.getByRole('button', { name: 'Import Contacts' }).click();
  await expect(page.getByText('All contacts in the CSV already exist.').first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Contacts (4)' })).toBeVisible();
});
