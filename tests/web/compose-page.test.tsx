import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaignLimits, composeMessages } from '../../schema/api/campaigns';
import { contact, gate } from './contacts-fake-server';
import {
  ARTIST_NAME,
  chooseOption,
  containerOf,
  enter,
  fakeComposeServer,
  fillTrack,
  formField,
  openCompose,
  recipientBox,
  toast,
  validTrack,
  writtenEmail,
} from './compose-fake-server';
import { preloadRoutes } from './helpers';
import { apiMessages } from '../../schema/api/serverMessages';
import { objectContaining } from '../support/matchers';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/compose/ComposePage');
}, 60_000);

const WRITER_NOTE = 'Each recipient gets an email the AI writer writes for them; [CONTACT_NAME] and [LABEL_NAME] show where their name and label go.';
const SAME_EMAIL_NOTE = 'Everyone gets this email with their own details filled in.';

/** Two contacts: Ana (newer, listed first) and Ben. */
const ana = contact(2, { name: 'Ana Vogel', email: 'ana@deeprecords.example', label_name: 'Deep Records' });
const ben = contact(1, { name: 'Ben Ortiz', email: 'ben@nightowl.example', label_name: 'Night Owl', contact_type: 'DJ' });

const generateButton = () => screen.getByRole('button', { name: /^(Generate Email Preview|Generating\.\.\.)$/ });

const previewContainer = () => containerOf('Email Preview');

async function generated(server: ReturnType<typeof fakeComposeServer>) {
  const user = userEvent.setup();
  await openCompose(server);
  await fillTrack(user);
  await user.click(recipientBox(ana.email));
  await user.click(generateButton());
  await within(previewContainer()).findByText(writtenEmail(validTrack, ana).subject);
  return user;
}

describe('compose: AI preview', () => {
  it('keeps Generate Email Preview disabled, with the spec text, until the track and a recipient are there', async () => {
    const server = fakeComposeServer({ contacts: [ana, ben] });
    const user = userEvent.setup();
    await openCompose(server);
    expect(screen.getByRole('heading', { name: 'Track Information' })).toBeInTheDocument();
    expect(generateButton()).toBeDisabled();
    expect(screen.getByText(composeMessages.previewNeeds)).toBeInTheDocument();
    // The * fields the spec text does not name are listed beside it.
    expect(screen.getByText('Still needed: Track URL, Genre')).toBeInTheDocument();

    await fillTrack(user, { track_name: validTrack.track_name, description: validTrack.description, genre: validTrack.genre });
    await user.click(recipientBox(ana.email));
    // Still no link.
    expect(generateButton()).toBeDisabled();
    expect(screen.getByText(composeMessages.previewNeeds)).toBeInTheDocument();
    expect(screen.getByText('Still needed: Track URL')).toBeInTheDocument();

    const url = screen.getByRole('textbox', { name: 'Track URL *' });
    expect(url).toHaveAttribute('placeholder', 'https://soundcloud.com/your-name/your-track');
    await user.type(url, 'soundcloud dot com');
    await user.tab();
    expect(await screen.findByText(composeMessages.trackUrlInvalid)).toBeInTheDocument();
    expect(generateButton()).toBeDisabled();

    await user.clear(url);
    await enter(user, url, validTrack.track_url);
    await waitFor(() => expect(generateButton()).toBeEnabled());
    expect(screen.queryByText(composeMessages.trackUrlInvalid)).not.toBeInTheDocument();
    expect(screen.queryByText(composeMessages.previewNeeds)).not.toBeInTheDocument();
    expect(screen.queryByText(/^Still needed/)).not.toBeInTheDocument();

    // Without a recipient it is disabled again: the spec text alone, the track being complete.
    await user.click(recipientBox(ana.email));
    expect(generateButton()).toBeDisabled();
    expect(screen.getByText(composeMessages.previewNeeds)).toBeInTheDocument();
    expect(screen.queryByText(/^Still needed/)).not.toBeInTheDocument();
  });

  it('says the Track URL is required when it is left blank in AI mode, not in HTML mode', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = userEvent.setup();
    await openCompose(server);
    expect(screen.queryByText(composeMessages.trackUrlRequired)).not.toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: 'Track URL *' }));
    await user.tab();
    expect(await screen.findByText(composeMessages.trackUrlRequired)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Track URL *' })).toHaveAttribute('aria-invalid', 'true');

    act(() => createWrapper().findSegmentedControl()!.findSegmentById('html')!.click());
    expect(await screen.findByRole('textbox', { name: 'Track URL' })).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(composeMessages.trackUrlRequired)).not.toBeInTheDocument();

    act(() => createWrapper().findSegmentedControl()!.findSegmentById('ai')!.click());
    await enter(user, await screen.findByRole('textbox', { name: 'Track URL *' }), validTrack.track_url);
    expect(screen.queryByText(composeMessages.trackUrlRequired)).not.toBeInTheDocument();
  });

  it('offers the tone and length options with the spec defaults, and mood and bpm in the form data', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = userEvent.setup();
    await openCompose(server);
    const tone = formField('Email Tone').findControl()!.findSelect()!;
    expect(tone.findTrigger().getElement()).toHaveTextContent('Professional');
    tone.openDropdown();
    expect(
      tone
        .findDropdown()
        .findOptions()
        .map((option) => option.getElement().textContent),
    ).toEqual(['Professional', 'Friendly', 'Casual']);
    tone.closeDropdown();
    const length = formField('Email Length').findControl()!.findSelect()!;
    expect(length.findTrigger().getElement()).toHaveTextContent('Medium (~150 words)');
    length.openDropdown();
    expect(
      length
        .findDropdown()
        .findOptions()
        .map((option) => option.getElement().textContent),
    ).toEqual(['Short (~100 words)', 'Medium (~150 words)', 'Long (~250 words)']);
    length.closeDropdown();
    expect(screen.getByRole('textbox', { name: 'Track Description *' })).toHaveAttribute('rows', '3');

    await fillTrack(user);
    chooseOption('Email Tone', 'casual');
    chooseOption('Email Length', '250');
    await user.click(screen.getByRole('button', { name: 'More details (optional)' }));
    await user.type(screen.getByRole('textbox', { name: 'Mood' }), 'Hypnotic');
    await user.type(screen.getByRole('spinbutton', { name: 'BPM' }), '128');
    await user.click(recipientBox(ana.email));
    await user.click(generateButton());
    await within(previewContainer()).findByText(writtenEmail(validTrack, ana).subject);
    expect(server.bodies('POST', '/api/campaigns/generate-preview')[0]!.track).toEqual({
      ...validTrack,
      mood: 'Hypnotic',
      bpm: '128',
      ai_tone: 'casual',
      email_length: 250,
      // No uploaded track: no listen page; downloads off and the default link validity.
      track_id: null,
      allow_download: false,
      listen_days: 90,
      // 'Already released' left unticked (issue 28 §2).
      released: false,
    });
  });

  it('HTML mode hides the AI-only fields (Email Tone, Email Length); back in AI mode they show the values chosen before', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    await openCompose(server);
    chooseOption('Email Tone', 'friendly');
    const fieldLabels = () =>
      createWrapper()
        .findAllFormFields()
        .map((field) => field.findLabel()?.getElement().textContent);
    expect(fieldLabels()).toEqual(expect.arrayContaining(['Email Tone', 'Email Length']));

    act(() => createWrapper().findSegmentedControl()!.findSegmentById('html')!.click());
    await screen.findByRole('textbox', { name: 'Track URL' });
    expect(fieldLabels()).not.toContain('Email Tone');
    expect(fieldLabels()).not.toContain('Email Length');
    expect(fieldLabels()).toEqual(expect.arrayContaining(['Track Name', 'Genre', 'Track Description']));

    act(() => createWrapper().findSegmentedControl()!.findSegmentById('ai')!.click());
    await screen.findByRole('textbox', { name: 'Track URL *' });
    expect(formField('Email Tone').findControl()!.findSelect()!.findTrigger().getElement()).toHaveTextContent('Friendly');
    expect(formField('Email Length').findControl()!.findSelect()!.findTrigger().getElement()).toHaveTextContent('Medium (~150 words)');
  });

  // It says Generating... meanwhile.
  it('writes the preview for the first selected contact in list order, and regenerates the same draft', async () => {
    const server = fakeComposeServer({ contacts: [ana, ben] });
    const user = userEvent.setup();
    await openCompose(server);
    await fillTrack(user);
    // Ben is ticked first, but Ana comes first in the list.
    await user.click(recipientBox(ben.email));
    await user.click(recipientBox(ana.email));
    const held = gate();
    server.hold.generate = held.promise;
    await user.click(generateButton());
    expect(await screen.findByRole('button', { name: 'Generating...' })).toBeDisabled();
    held.open();

    const email = writtenEmail(validTrack, ana);
    const card = within(previewContainer());
    expect(await card.findByText(email.subject)).toBeInTheDocument();
    // The body keeps its line breaks.
    const body = card.getByText(/My new Techno track/);
    expect(body.textContent).toBe(email.body);
    expect(card.getByText(WRITER_NOTE)).toBeInTheDocument();
    const [first] = server.bodies('POST', '/api/campaigns/generate-preview');
    expect(first).toEqual({ track: objectContaining(validTrack), contact_id: ana.id, total_recipients: 2 });
    expect(first).not.toHaveProperty('campaign_id');
    expect(server.campaigns.size).toBe(1);
    const [campaign] = [...server.campaigns.values()];
    expect(campaign).toMatchObject({ status: 'draft', mode: 'ai', track_name: validTrack.track_name, total_recipients: 2 });

    await user.click(generateButton());
    await waitFor(() => expect(server.calls('POST', '/api/campaigns/generate-preview')).toHaveLength(2));
    expect(server.bodies('POST', '/api/campaigns/generate-preview')[1]).toMatchObject({ campaign_id: campaign!.id });
    await waitFor(() => expect(generateButton()).toHaveTextContent('Generate Email Preview'));
    expect(server.campaigns.size).toBe(1);
  });

  it('edits and saves the email with PATCH, toasts Email updated, and the note says everyone gets it', async () => {
    const server = fakeComposeServer({ contacts: [ana, ben] });
    const user = await generated(server);
    const card = within(previewContainer());
    await user.click(card.getByRole('button', { name: 'Edit' }));
    const subject = card.getByRole('textbox', { name: 'Subject' });
    const body = card.getByRole('textbox', { name: 'Email Body' });
    expect(subject).toHaveValue(writtenEmail(validTrack, ana).subject);
    await user.clear(subject);
    await enter(user, subject, 'For [LABEL_NAME]: Midnight Drive');
    await user.clear(body);
    await enter(user, body, 'Hi [CONTACT_NAME],\n\nHere it is.');
    await user.click(card.getByRole('button', { name: 'Save' }));

    const notice = await toast(composeMessages.emailUpdatedTitle);
    expect(notice).toHaveTextContent(composeMessages.emailUpdated);
    const [campaign] = [...server.campaigns.values()];
    expect(server.bodies('PATCH', `/api/campaigns/${campaign!.id}`)).toEqual([
      { email_subject: 'For [LABEL_NAME]: Midnight Drive', email_body: 'Hi [CONTACT_NAME],\n\nHere it is.' },
    ]);
    expect(card.queryByRole('textbox', { name: 'Subject' })).not.toBeInTheDocument();
    expect(card.getByText('For [LABEL_NAME]: Midnight Drive')).toBeInTheDocument();
    expect(card.getByText(SAME_EMAIL_NOTE)).toBeInTheDocument();
    expect(server.calls('POST', '/api/campaigns')).toHaveLength(0);
  });

  it('refuses to save a blank subject or body, in words for any email (not only HTML), and keeps editing', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = await generated(server);
    const card = within(previewContainer());
    await user.click(card.getByRole('button', { name: 'Edit' }));
    await user.clear(card.getByRole('textbox', { name: 'Email Body' }));
    await user.click(card.getByRole('button', { name: 'Save' }));
    const notice = await toast(composeMessages.saveEmailFailed);
    expect(notice).toHaveTextContent(composeMessages.emailSubjectAndBodyRequired);
    expect(notice).not.toHaveTextContent(composeMessages.subjectAndBodyRequired);
    expect(card.getByRole('textbox', { name: 'Email Body' })).toHaveValue('');
    const [campaign] = [...server.campaigns.values()];
    expect(server.calls('PATCH', `/api/campaigns/${campaign!.id}`)).toHaveLength(0);
  });

  it('cancel restores the saved email; a failed save keeps the edit with its text', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = await generated(server);
    const card = within(previewContainer());
    const original = writtenEmail(validTrack, ana);

    await user.click(card.getByRole('button', { name: 'Edit' }));
    await user.type(card.getByRole('textbox', { name: 'Subject' }), ' (edited)');
    await user.click(card.getByRole('button', { name: 'Cancel' }));
    expect(card.queryByRole('textbox', { name: 'Subject' })).not.toBeInTheDocument();
    expect(card.getByText(original.subject)).toBeInTheDocument();
    expect(card.queryByText(`${original.subject} (edited)`)).not.toBeInTheDocument();

    server.fail.patch = { status: 500, message: apiMessages.internalError };
    await user.click(card.getByRole('button', { name: 'Edit' }));
    await user.type(card.getByRole('textbox', { name: 'Subject' }), ' v2');
    await user.click(card.getByRole('button', { name: 'Save' }));
    expect(await toast(composeMessages.saveEmailFailed)).toHaveTextContent(apiMessages.internalError);
    expect(card.getByRole('textbox', { name: 'Subject' })).toHaveValue(`${original.subject} v2`);
    expect([...server.campaigns.values()][0]!.email_subject).toBe(original.subject);
  });

  it('starts a new draft when the saved one is gone (deleted elsewhere): the save that failed can be repeated', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = await generated(server);
    const card = within(previewContainer());
    const [lost] = [...server.campaigns.values()];
    server.campaigns.clear();
    await user.click(card.getByRole('button', { name: 'Edit' }));
    await user.type(card.getByRole('textbox', { name: 'Subject' }), '!');
    await user.click(card.getByRole('button', { name: 'Save' }));
    expect(await toast(composeMessages.saveEmailFailed)).toHaveTextContent(composeMessages.campaignNotFound);
    expect(card.getByRole('textbox', { name: 'Subject' })).toHaveValue(`${writtenEmail(validTrack, ana).subject}!`);

    await user.click(card.getByRole('button', { name: 'Save' }));
    await toast(composeMessages.emailUpdatedTitle);
    expect(server.bodies('POST', '/api/campaigns')).toEqual([
      expect.objectContaining({ mode: 'ai', email_subject: `${writtenEmail(validTrack, ana).subject}!`, total_recipients: 1 }),
    ]);
    expect(server.campaigns.size).toBe(1);
    expect(server.campaigns.has(lost!.id)).toBe(false);
  });

  it('a generate failure (503) toasts the spec message with the server detail and keeps the form', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    server.fail.generate = { status: 503, message: composeMessages.writerBusy };
    const user = userEvent.setup();
    await openCompose(server);
    await fillTrack(user);
    await user.click(recipientBox(ana.email));
    await user.click(generateButton());
    expect(await toast(composeMessages.generateFailed)).toHaveTextContent(composeMessages.writerBusy);
    expect(screen.getByRole('textbox', { name: 'Track Name *' })).toHaveValue(validTrack.track_name);
    expect(screen.getByRole('textbox', { name: 'Track Description *' })).toHaveValue(validTrack.description);
    expect(recipientBox(ana.email)).toBeChecked();
    expect(generateButton()).toBeEnabled();
    expect(within(previewContainer()).getByText('No email preview yet')).toBeInTheDocument();
    expect(server.campaigns.size).toBe(0);
  });
});

describe('compose: campaign templates', () => {
  it('lists the system templates with description, tone and subject, and a Custom Template card', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    await openCompose(server);
    const demo = await screen.findByRole('group', { name: 'Demo to Label' });
    expect(within(demo).getByText('Professional')).toBeInTheDocument();
    expect(within(demo).getByText(/concise, professional demo submission/)).toBeInTheDocument();
    expect(within(demo).getByText('Subject: Demo submission: [TRACK_NAME] by [ARTIST_NAME]')).toBeInTheDocument();
    // One placeholder style in the UI (issue 25): the stored {{track_name}} is never shown.
    expect(screen.queryByText(/\{\{/)).toBeNull();
    expect(within(screen.getByRole('group', { name: 'DJ Promo' })).getByText('Friendly')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Fan Preview' })).getByText('Casual')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Custom Template' })).toBeInTheDocument();
    const select = formField('Template').findControl()!.findSelect()!;
    expect(select.findTrigger().getElement()).toHaveTextContent('Choose a template');
  });

  // Subject and body filled with the track, tone set, 'Template Applied' shown.
  it('applies a template to the email in edit mode, and saving creates the draft', async () => {
    const server = fakeComposeServer({ contacts: [ana, ben] });
    const user = userEvent.setup();
    await openCompose(server, { soundcloud_url: 'https://soundcloud.com/robin' });
    await fillTrack(user);
    await user.click(await screen.findByRole('button', { name: 'Use template DJ Promo' }));

    await toast(composeMessages.templateApplied);
    const card = within(previewContainer());
    expect(card.getByRole('textbox', { name: 'Subject' })).toHaveValue('Fresh promo for your sets: Midnight Drive');
    const body = card.getByRole<HTMLTextAreaElement>('textbox', { name: 'Email Body' });
    expect(body.value).toMatch(/^Hey \[CONTACT_NAME\],/);
    expect(body.value).toContain('"Midnight Drive"');
    expect(body.value).toContain(`Listen and download: ${validTrack.track_url}`);
    expect(body.value).toContain(`Cheers,\n${ARTIST_NAME}`);
    expect(body.value).toContain('SoundCloud: https://soundcloud.com/robin');
    expect(body.value).not.toMatch(/\{\{/);
    expect(formField('Email Tone').findControl()!.findSelect()!.findTrigger().getElement()).toHaveTextContent('Friendly');

    // No draft yet: saving needs a recipient (spec text), then creates an AI draft.
    await user.click(card.getByRole('button', { name: 'Save' }));
    await toast(composeMessages.previewNeeds);
    expect(server.calls('POST', '/api/campaigns')).toHaveLength(0);
    await user.click(recipientBox(ben.email));
    await user.click(card.getByRole('button', { name: 'Save' }));
    await toast(composeMessages.emailUpdatedTitle);
    const [created] = server.bodies('POST', '/api/campaigns');
    expect(created).toMatchObject({ mode: 'ai', email_subject: 'Fresh promo for your sets: Midnight Drive', total_recipients: 1 });
    expect(created!.track).toMatchObject({ ...validTrack, ai_tone: 'friendly' });
    expect(card.getByText('Fresh promo for your sets: Midnight Drive')).toBeInTheDocument();
    expect(card.getByText(SAME_EMAIL_NOTE)).toBeInTheDocument();
  });

  it('the dropdown applies a template too, and Custom Template starts blank', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = userEvent.setup();
    await openCompose(server);
    await fillTrack(user, { track_name: 'Low Tide' });
    await screen.findByRole('group', { name: 'Fan Preview' });
    chooseOption('Template', 'tpl-fan-preview');
    await toast(composeMessages.templateApplied);
    const card = within(previewContainer());
    expect(card.getByRole('textbox', { name: 'Subject' })).toHaveValue('First listen: Low Tide');

    await user.click(screen.getByRole('button', { name: 'Use template Custom Template' }));
    expect(card.getByRole('textbox', { name: 'Subject' })).toHaveValue('');
    expect(card.getByRole('textbox', { name: 'Email Body' })).toHaveValue('');
  });

  it('toasts when the templates cannot be loaded, and still offers the Custom Template', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    server.fail.templates = { status: 500, message: apiMessages.internalError };
    await openCompose(server);
    expect(await toast(composeMessages.templatesLoadFailed)).toHaveTextContent(apiMessages.internalError);
    expect(screen.getByRole('group', { name: 'Custom Template' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Demo to Label' })).not.toBeInTheDocument();
  });

  it('saves the email as a template: name required, the first 100 characters shown, then listed and deletable', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    const user = await generated(server);
    const card = within(previewContainer());
    await user.click(card.getByRole('button', { name: 'Edit' }));
    const longBody = `Hi [CONTACT_NAME], ${'this track is the one. '.repeat(10)}`;
    await user.clear(card.getByRole('textbox', { name: 'Email Body' }));
    await user.click(card.getByRole('textbox', { name: 'Email Body' }));
    await user.paste(longBody);
    await user.click(card.getByRole('button', { name: 'Save as Template' }));

    const dialog = within(await screen.findByRole('dialog', { name: 'Save as Template' }));
    expect(dialog.getByText(`${longBody.slice(0, campaignLimits.templatePreviewChars)}...`)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(dialog.getByText(composeMessages.templateNameRequired)).toBeInTheDocument();
    expect(server.calls('POST', '/api/templates')).toHaveLength(0);

    await user.type(dialog.getByRole('textbox', { name: 'Template Name' }), 'Short label pitch');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await toast(composeMessages.templateSaved);
    expect(server.bodies('POST', '/api/templates')).toEqual([
      { name: 'Short label pitch', subject: writtenEmail(validTrack, ana).subject, body: longBody, ai_tone: 'professional' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save as Template' })).not.toBeInTheDocument());
    const saved = screen.getByRole('group', { name: 'Short label pitch' });

    await user.click(within(saved).getByRole('button', { name: 'Delete template Short label pitch' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Short label pitch' })).not.toBeInTheDocument());
    expect(server.templates.size).toBe(0);
  });

  it('keeps the save-template dialog and the typed name when saving fails', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    server.fail.saveTemplate = { status: 500, message: apiMessages.internalError };
    const user = await generated(server);
    await user.click(within(previewContainer()).getByRole('button', { name: 'Save as Template' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Save as Template' }));
    await user.type(dialog.getByRole('textbox', { name: 'Template Name' }), 'Mine');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await toast(composeMessages.saveTemplateFailed)).toHaveTextContent(apiMessages.internalError);
    expect(dialog.getByRole('textbox', { name: 'Template Name' })).toHaveValue('Mine');
  });
});

describe('compose: preview per recipient', () => {
  it('steps through the selected recipients in list order, each with their own details', async () => {
    const server = fakeComposeServer({ contacts: [ana, ben] });
    const user = userEvent.setup();
    await openCompose(server);
    expect(screen.queryByRole('heading', { name: 'Preview per recipient' })).not.toBeInTheDocument();
    await fillTrack(user);
    await user.click(recipientBox(ben.email));
    await user.click(recipientBox(ana.email));
    await user.click(generateButton());
    await within(previewContainer()).findByText(writtenEmail(validTrack, ana).subject);

    expect(await screen.findByRole('heading', { name: 'Preview per recipient' })).toBeInTheDocument();
    expect(await screen.findByText(`${ana.name} <${ana.email}>`)).toBeInTheDocument();
    const frame = await screen.findByTitle('Recipient email preview');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toContain(`Hi ${ana.name},`);
    expect(screen.getByText('Recipient 1 of 2')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next recipient' }));
    expect(await screen.findByText(`${ben.name} <${ben.email}>`)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTitle('Recipient email preview').getAttribute('srcdoc')).toContain(`Hi ${ben.name},`));
    // The draft's subject, written for Ana's label, is the same for Ben (no placeholder in it).
    expect(within(containerOf('Preview per recipient')).getByText(`"${validTrack.track_name}" for ${ana.label_name}`)).toBeInTheDocument();
    const [campaign] = [...server.campaigns.values()];
    const path = `/api/campaigns/${campaign!.id}/recipient-preview`;
    expect(server.bodies('POST', path)).toEqual([{ contact_id: ana.id }, { contact_id: ben.id }]);

    // Back to Ana: shown from the cache, not fetched again.
    await user.click(screen.getByRole('button', { name: 'Previous recipient' }));
    expect(await screen.findByText(`${ana.name} <${ana.email}>`)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTitle('Recipient email preview').getAttribute('srcdoc')).toContain(`Hi ${ana.name},`));
    expect(server.calls('POST', path)).toHaveLength(2);
  });

  it('says when a recipient email cannot be shown, and retries', async () => {
    const server = fakeComposeServer({ contacts: [ana] });
    server.fail.recipientPreview = { status: 500, message: apiMessages.internalError };
    const user = await generated(server);
    expect(await screen.findByText(`This recipient's email could not be shown: ${apiMessages.internalError}`)).toBeInTheDocument();
    server.fail.recipientPreview = null;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTitle('Recipient email preview').getAttribute('srcdoc')).toContain(`Hi ${ana.name},`));
  });
});
