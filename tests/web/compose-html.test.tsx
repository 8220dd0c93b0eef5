import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { composeMessages } from '../../schema/api/campaigns';
import { accentPresets, customHtmlStarter, htmlTemplateInfo, type HtmlTemplateKind } from '../../schema/email/htmlTemplates';
import { HTML_FRAGMENT_NOTE } from '../../web/src/pages/compose/html/HtmlComposerCard';
import { HtmlModePanel, type HtmlModePanelProps } from '../../web/src/pages/compose/html/HtmlModePanel';
import { subjectRequired } from '../../web/src/pages/compose/html/TemplateCustomiser';
import { accentTextError } from '../../web/src/pages/compose/html/AccentColorField';

const track: HtmlModePanelProps['track'] = {
  track_name: 'Night & Day <Dub>',
  track_url: 'https://soundcloud.com/robin/night-and-day',
  genre: 'techno',
  description: 'A rolling 128 bpm techno cut.',
};
const artist: HtmlModePanelProps['artist'] = {
  name: 'Robin Example',
  links: [{ label: 'SoundCloud', url: 'https://soundcloud.com/robin' }],
};

/** A promise the test settles when it wants: holds a save "in flight". */
function gate() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

function renderPanel(overrides: Partial<HtmlModePanelProps> = {}) {
  const onCreatePreview = vi.fn<HtmlModePanelProps['onCreatePreview']>(async () => {});
  let props: HtmlModePanelProps = { track, artist, onCreatePreview, savedPreview: null, ...overrides };
  const result = render(<HtmlModePanel {...props} />);
  const rerender = (next: Partial<HtmlModePanelProps>) => {
    props = { ...props, ...next };
    result.rerender(<HtmlModePanel {...props} />);
  };
  return { ...result, rerender, onCreatePreview: props.onCreatePreview as typeof onCreatePreview, user: userEvent.setup() };
}

const tiles = () => createWrapper().findTiles()!;
const chooseTemplate = (kind: HtmlTemplateKind) => {
  act(() => tiles().findInputByValue(kind)!.click());
};
const emailSubject = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Email Subject' });
const accentText = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Accent Color' });
const accentPicker = () => screen.getByLabelText<HTMLInputElement>('Pick accent colour');
const createPreviewButton = () => screen.getByRole('button', { name: 'Create Preview' });
const composerSubject = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Subject' });
const composerBody = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: /^HTML Body/ });
const setBody = (value: string) => {
  act(() => createWrapper().findTextarea()!.setTextareaValue(value));
};
const showBodyAs = (view: 'code' | 'preview') => {
  act(() => createWrapper().findSegmentedControl()!.findSegmentById(view)!.click());
};

describe('HTML mode: template chooser', () => {
  // Minimal, Bold, Professional and Custom HTML.
  it('offers the four templates as keyboard-usable radio tiles with their blurbs, Minimal chosen first', () => {
    renderPanel();
    // Native radios (arrow keys move between them), named by the template and described by its blurb.
    const radios = screen.getAllByRole('radio');
    expect(radios).toHaveLength(4);
    const expected = [
      ['Minimal', 'Clean & simple design'],
      ['Bold', 'Eye-catching gradient header'],
      ['Professional', 'Business-style layout'],
      ['Custom HTML', 'Write your own code'],
    ];
    expected.forEach(([name, blurb], index) => {
      expect(radios[index]).toHaveAccessibleName(name);
      expect(radios[index]).toHaveAccessibleDescription(blurb);
    });
    expect(tiles().findInputByValue('minimal')!.getElement()).toBeChecked();
    expect(screen.getByRole('heading', { name: 'Customize: Minimal' })).toBeInTheDocument();
  });

  it('gives each template its own default accent (spec §9), and the same subject form', () => {
    renderPanel();
    const expected: Record<HtmlTemplateKind, string> = { minimal: '#6366f1', bold: '#8b5cf6', professional: '#3b82f6', custom: '#64748b' };
    for (const kind of ['bold', 'professional', 'minimal'] as const) {
      chooseTemplate(kind);
      expect(screen.getByRole('heading', { name: `Customize: ${htmlTemplateInfo[kind].name}` })).toBeInTheDocument();
      expect(accentText().value).toBe(expected[kind]);
      expect(accentPicker().value).toBe(expected[kind]);
      expect(screen.getByRole('button', { name: `Use accent colour ${expected[kind]}` })).toHaveAttribute('aria-pressed', 'true');
    }
    // Custom HTML starts from the starter in its own default accent.
    chooseTemplate('custom');
    expect(composerBody().value).toContain(expected.custom);
  });
});

describe('HTML mode: customising a template', () => {
  it('defaults the subject to "Demo Submission: {track name}" and follows the track name until the artist types one', async () => {
    const { rerender, user } = renderPanel();
    expect(emailSubject().value).toBe('Demo Submission: Night & Day <Dub>');
    rerender({ track: { ...track, track_name: 'Sunrise' } });
    expect(emailSubject().value).toBe('Demo Submission: Sunrise');

    await user.clear(emailSubject());
    await user.type(emailSubject(), 'For your label: Sunrise');
    rerender({ track: { ...track, track_name: 'Sunset' } });
    expect(emailSubject().value).toBe('For your label: Sunrise');
    // Another template keeps the artist's subject.
    chooseTemplate('bold');
    expect(emailSubject().value).toBe('For your label: Sunrise');
  });

  it('sets the accent from a preset: the swatch is pressed and the picker and text follow; it survives a template change', async () => {
    const { user } = renderPanel();
    const presetButtons = accentPresets.map((preset) => screen.getByRole('button', { name: `Use accent colour ${preset}` }));
    expect(presetButtons).toHaveLength(6);
    await user.click(screen.getByRole('button', { name: 'Use accent colour #10b981' }));
    expect(accentText().value).toBe('#10b981');
    expect(accentPicker().value).toBe('#10b981');
    expect(screen.getByRole('button', { name: 'Use accent colour #10b981' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Use accent colour #6366f1' })).toHaveAttribute('aria-pressed', 'false');

    // A colour the artist picked is not reset by choosing another template.
    chooseTemplate('professional');
    expect(accentText().value).toBe('#10b981');
  });

  it('takes a colour from the picker and #rgb text, normalised', async () => {
    const { user } = renderPanel();
    fireEvent.change(accentPicker(), { target: { value: '#123456' } });
    expect(accentText().value).toBe('#123456');
    await user.clear(accentText());
    await user.type(accentText(), '#F90');
    expect(accentPicker().value).toBe('#ff9900');
    expect(screen.getByRole('group', { name: 'Preset accent colours' }).querySelectorAll('[aria-pressed="true"]')).toHaveLength(0);
  });

  it('shows an error for text that is not a colour, keeps the colour, and does not create the preview', async () => {
    const { user, onCreatePreview } = renderPanel();
    await user.click(screen.getByRole('button', { name: 'Use accent colour #ef4444' }));
    await user.clear(accentText());
    await user.type(accentText(), 'blue');
    // Not while typing: only once the box is left.
    expect(screen.queryByText(accentTextError)).not.toBeInTheDocument();
    await user.tab();
    expect(screen.getByText(accentTextError)).toBeInTheDocument();
    expect(accentPicker().value).toBe('#ef4444');
    expect(screen.getByRole('button', { name: 'Use accent colour #ef4444' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(createPreviewButton());
    expect(onCreatePreview).not.toHaveBeenCalled();

    // A preset puts things right.
    await user.click(screen.getByRole('button', { name: 'Use accent colour #f59e0b' }));
    expect(screen.queryByText(accentTextError)).not.toBeInTheDocument();
    expect(accentText().value).toBe('#f59e0b');
  });

  it('asks for a subject when it is blank and does not create the preview', async () => {
    const { user, onCreatePreview } = renderPanel();
    await user.clear(emailSubject());
    await user.click(createPreviewButton());
    expect(screen.getByText(subjectRequired)).toBeInTheDocument();
    expect(onCreatePreview).not.toHaveBeenCalled();
  });

  it('Create Preview sends the template in the chosen accent, track name escaped, then opens it in the composer', async () => {
    const { user, onCreatePreview } = renderPanel();
    chooseTemplate('bold');
    await user.click(screen.getByRole('button', { name: 'Use accent colour #10b981' }));
    await user.click(createPreviewButton());

    await waitFor(() => expect(onCreatePreview).toHaveBeenCalledTimes(1));
    const [email] = onCreatePreview.mock.calls[0]!;
    expect(email.subject).toBe('Demo Submission: Night & Day <Dub>');
    expect(email.body).toContain('#10b981');
    expect(email.body).toContain('Night &amp; Day &lt;Dub&gt;');
    expect(email.body).not.toContain('<Dub>');
    expect(email.body).toContain('Robin Example');
    expect(email.body).toContain('[CONTACT_NAME]');

    expect(await screen.findByRole('heading', { name: 'HTML Email Composer' })).toBeInTheDocument();
    expect(composerSubject().value).toBe(email.subject);
    expect(composerBody().value).toBe(email.body);
    expect(composerSubject()).toHaveFocus();
    expect(screen.getByText('Use [NAME] or [CONTACT_NAME] to insert the contact name.')).toBeInTheDocument();

    // Back to Templates: the form again, the accent still the artist's.
    await user.click(screen.getByRole('button', { name: 'Back to Templates' }));
    expect(screen.getByRole('heading', { name: 'Customize: Bold' })).toBeInTheDocument();
    expect(accentText().value).toBe('#10b981');
  });

  it('shows the save in progress and ignores another press; a failed save keeps the form as typed', async () => {
    const saving = gate();
    const { user, onCreatePreview } = renderPanel({ onCreatePreview: vi.fn(() => saving.promise) });
    await user.clear(emailSubject());
    await user.type(emailSubject(), 'My subject');
    await user.click(screen.getByRole('button', { name: 'Use accent colour #f59e0b' }));
    await user.click(createPreviewButton());

    const button = createWrapper().findForm()!.findActions()!.findButton()!;
    expect(button.findLoadingIndicator()).not.toBeNull();
    expect(button.isDisabled()).toBe(true);
    expect(tiles().findInputByValue('bold')!.getElement()).toBeDisabled();
    fireEvent.submit(screen.getByRole('form', { name: 'Customize Minimal' }));
    expect(onCreatePreview).toHaveBeenCalledTimes(1);

    await act(() => {
      saving.reject(new Error('Failed to create email preview.'));
      return Promise.resolve();
    });
    await waitFor(() => expect(createPreviewButton()).toBeEnabled());
    expect(screen.queryByRole('heading', { name: 'HTML Email Composer' })).not.toBeInTheDocument();
    expect(emailSubject().value).toBe('My subject');
    expect(accentText().value).toBe('#f59e0b');
  });
});

describe('HTML mode: the HTML Email Composer', () => {
  it('Custom HTML opens the composer on the starter; Back to Templates returns and the code is kept for later', async () => {
    const { user } = renderPanel();
    chooseTemplate('professional');
    chooseTemplate('custom');
    expect(screen.getByRole('heading', { name: 'HTML Email Composer' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /^Customize/ })).not.toBeInTheDocument();
    const starter = customHtmlStarter({ ...track, artist_name: artist.name, social_links: artist.links, accent: '#64748b' });
    expect(composerBody().value).toBe(starter);
    expect(composerSubject().value).toBe('Demo Submission: Night & Day <Dub>');

    setBody('<p>My own pitch</p>');
    await user.click(screen.getByRole('button', { name: 'Back to Templates' }));
    expect(screen.getByRole('heading', { name: 'Customize: Professional' })).toBeInTheDocument();
    expect(tiles().findInputByValue('professional')!.getElement()).toBeChecked();
    expect(tiles().findInputByValue('professional')!.getElement()).toHaveFocus();

    chooseTemplate('custom');
    expect(composerBody().value).toBe('<p>My own pitch</p>');
  });

  it('shows the body as code or in a sandboxed preview frame that cannot run scripts', () => {
    renderPanel();
    chooseTemplate('custom');
    const html = '<!DOCTYPE html><html><body><h1>Hi [NAME]</h1><script>parent.document.title=1</script></body></html>';
    setBody(html);
    const code = composerBody();
    expect(code).toHaveAttribute('spellcheck', 'false');
    expect(code).toHaveAttribute('rows', '18');

    showBodyAs('preview');
    expect(screen.queryByRole('textbox', { name: /^HTML Body/ })).not.toBeInTheDocument();
    const frame = screen.getByTitle<HTMLIFrameElement>('HTML body preview');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toBe(html);

    showBodyAs('code');
    expect(composerBody().value).toBe(html);
  });

  it('says a body that is not a whole document is sent wrapped in one', () => {
    renderPanel();
    chooseTemplate('custom');
    // The starter is a whole document: no note.
    expect(screen.queryByText(HTML_FRAGMENT_NOTE)).not.toBeInTheDocument();
    setBody('<p>Hello [NAME]</p>');
    expect(screen.getByText(HTML_FRAGMENT_NOTE)).toBeInTheDocument();
    // Said in the preview view too, since that is where the difference would show.
    showBodyAs('preview');
    expect(screen.getByText(HTML_FRAGMENT_NOTE)).toBeInTheDocument();
    showBodyAs('code');
    setBody('<!DOCTYPE html><html><body><p>Hello [NAME]</p></body></html>');
    expect(screen.queryByText(HTML_FRAGMENT_NOTE)).not.toBeInTheDocument();
    setBody('   ');
    expect(screen.queryByText(HTML_FRAGMENT_NOTE)).not.toBeInTheDocument();
  });

  it('needs a subject and a body: blank ones show the message and nothing is saved', async () => {
    const { user, onCreatePreview } = renderPanel();
    chooseTemplate('custom');
    setBody('   ');
    await user.click(createPreviewButton());
    expect(screen.getByText(composeMessages.subjectAndBodyRequired)).toBeInTheDocument();

    setBody('<p>Hello [NAME]</p>');
    expect(screen.queryByText(composeMessages.subjectAndBodyRequired)).not.toBeInTheDocument();
    await user.clear(composerSubject());
    await user.click(createPreviewButton());
    expect(screen.getByText(composeMessages.subjectAndBodyRequired)).toBeInTheDocument();
    expect(onCreatePreview).not.toHaveBeenCalled();

    await user.type(composerSubject(), '  New EP  ');
    await user.click(createPreviewButton());
    await waitFor(() => expect(onCreatePreview).toHaveBeenCalledWith({ subject: 'New EP', body: '<p>Hello [NAME]</p>' }));
  });

  it('keeps the typed HTML and subject when the save is rejected', async () => {
    const onCreatePreview = vi.fn(() => Promise.reject(new Error('Failed to create email preview.')));
    const { user } = renderPanel({ onCreatePreview });
    chooseTemplate('custom');
    await user.clear(composerSubject());
    await user.type(composerSubject(), 'Custom pitch');
    setBody('<table><tr><td>Typed by hand</td></tr></table>');
    await user.click(createPreviewButton());

    await waitFor(() => expect(onCreatePreview).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(createPreviewButton()).toBeEnabled());
    expect(composerSubject().value).toBe('Custom pitch');
    expect(composerBody().value).toBe('<table><tr><td>Typed by hand</td></tr></table>');
    expect(screen.getByRole('heading', { name: 'HTML Email Composer' })).toBeInTheDocument();
  });

  it('has the guide for EP promotion, folded, with the placeholders and what happens to the HTML', async () => {
    const { user } = renderPanel();
    chooseTemplate('custom');
    const guide = createWrapper().findExpandableSection()!;
    expect(guide.findHeaderText()!.getElement().textContent).toBe('HTML Email Guide for EP Promotion');
    expect(guide.findExpandedContent()).toBeNull();
    await user.click(guide.findExpandButton().getElement());
    const content = guide.findExpandedContent()!.getElement();
    for (const placeholder of [
      '[NAME]',
      '[CONTACT_NAME]',
      '[EMAIL]',
      '[LABEL_NAME]',
      '[TRACK_NAME]',
      '[GENRE]',
      '[ARTIST_NAME]',
      '[TRACK_URL]',
      '[UNSUBSCRIBE_URL]',
    ]) {
      expect(content.textContent).toContain(placeholder);
    }
    expect(content.textContent).toMatch(/600 px/);
    expect(content.textContent).toMatch(/inline/i);
    expect(content.textContent).toMatch(/Scripts, forms/);
  });
});

describe('HTML mode: the saved preview', () => {
  it('shows nothing before a preview exists, then the stored subject and HTML in a sandboxed frame', () => {
    const { rerender } = renderPanel();
    expect(screen.queryByRole('heading', { name: 'Email Preview' })).not.toBeInTheDocument();
    const stored = { subject: 'Demo Submission: Sunrise', body: '<!DOCTYPE html><html><body><p>Hi [CONTACT_NAME]</p></body></html>' };
    rerender({ savedPreview: stored });
    expect(screen.getByRole('heading', { name: 'Email Preview' })).toBeInTheDocument();
    expect(screen.getByText('Demo Submission: Sunrise')).toBeInTheDocument();
    const frame = screen.getByTitle<HTMLIFrameElement>('Email preview');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('sandbox')).not.toMatch(/allow-scripts/);
    expect(frame.getAttribute('srcdoc')).toBe(stored.body);
  });
});
