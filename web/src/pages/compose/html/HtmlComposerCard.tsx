import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input, { type InputProps } from '@cloudscape-design/components/input';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useEffect, useRef, useState } from 'react';
import { campaignLimits, composeMessages } from '../../../../../schema/api/campaigns';
import { isHtmlDocument } from '../../../../../schema/email/htmlDocument';
import { SandboxedHtml } from '../../../components/SandboxedHtml';
import { HtmlEmailGuide } from './HtmlEmailGuide';
import type { EmailDraft } from '../emailDraft';
import styles from './html.module.css';

/** The composer's subject and HTML: the same shape as the AI preview's email. */
export type HtmlDraft = EmailDraft;

type BodyView = 'code' | 'preview';

export const HTML_FRAGMENT_NOTE = 'This will be sent as an HTML email; we add the <html> and <body> around it.';

/** The preview frame is as tall as the 18-row editor, so Code ↔ Preview does not move the page. */
const PREVIEW_HEIGHT = 400;

/**
 * The 'HTML Email Composer' card (spec §2, §4 HTML mode): Subject, HTML Body as code or as a sandboxed
 * preview, the placeholder note, the guide, and 'Create Preview' (spec §5: subject and body must not be
 * blank). Controlled: the panel keeps the draft, so it survives a failed save and 'Back to Templates'.
 */
export function HtmlComposerCard({
  description,
  draft,
  onChange,
  onCreatePreview,
  onBack,
  saving,
  focusOnOpen = false,
}: {
  description: string;
  draft: HtmlDraft;
  onChange: (draft: HtmlDraft) => void;
  onCreatePreview: (draft: HtmlDraft) => void;
  onBack: () => void;
  saving: boolean;
  /** Move focus to the Subject when the card opens from a button (not when it follows a tile). */
  focusOnOpen?: boolean;
}) {
  const [view, setView] = useState<BodyView>('code');
  const [error, setError] = useState<string | null>(null);
  const subjectRef = useRef<InputProps.Ref>(null);
  const subjectBlank = draft.subject.trim() === '';
  const bodyBlank = draft.body.trim() === '';
  // The server wraps a fragment into a document before it is stored and sent; say so, briefly.
  const isFragment = !bodyBlank && !isHtmlDocument(draft.body);

  // Only on opening: later renders must not pull focus back.
  const focusOnMount = useRef(focusOnOpen);
  useEffect(() => {
    if (focusOnMount.current) subjectRef.current?.focus();
  }, []);

  function edit(next: HtmlDraft) {
    setError(null);
    onChange(next);
  }

  function submit() {
    if (saving) return;
    if (subjectBlank || bodyBlank) {
      setError(composeMessages.subjectAndBodyRequired);
      return;
    }
    setError(null);
    onCreatePreview({ subject: draft.subject.trim(), body: draft.body });
  }

  return (
    <Form
      errorText={error ?? undefined}
      errorIconAriaLabel="Error"
      actions={
        <Button variant="primary" loading={saving} loadingText="Creating preview" onClick={submit}>
          Create Preview
        </Button>
      }
    >
      <Container
        header={
          <Header
            variant="h2"
            description={description}
            actions={
              <Button iconName="arrow-left" onClick={onBack} disabled={saving}>
                Back to Templates
              </Button>
            }
          >
            HTML Email Composer
          </Header>
        }
      >
        <SpaceBetween size="l">
          <FormField label="Subject" stretch>
            <Input
              ref={subjectRef}
              value={draft.subject}
              invalid={error !== null && subjectBlank}
              disabled={saving}
              onChange={({ detail }) => edit({ ...draft, subject: detail.value.slice(0, campaignLimits.subject) })}
            />
          </FormField>
          <FormField label="HTML Body" description="Use [NAME] or [CONTACT_NAME] to insert the contact name." stretch>
            <SpaceBetween size="xs">
              <SegmentedControl
                label="HTML Body view"
                selectedId={view}
                options={[
                  { id: 'code', text: 'Code', iconName: 'script' },
                  { id: 'preview', text: 'Preview', iconName: 'view-full' },
                ]}
                onChange={({ detail }) => setView(detail.selectedId as BodyView)}
              />
              <div className={styles.bodyArea}>
                {view === 'code' ? (
                  <div className={styles.code}>
                    <Textarea
                      value={draft.body}
                      rows={18}
                      spellcheck={false}
                      autoComplete={false}
                      disableBrowserAutocorrect
                      invalid={error !== null && bodyBlank}
                      disabled={saving}
                      onChange={({ detail }) => edit({ ...draft, body: detail.value })}
                    />
                  </div>
                ) : (
                  <SpaceBetween size="xxs">
                    <SandboxedHtml title="HTML body preview" html={draft.body} height={PREVIEW_HEIGHT - 24} />
                    <Box variant="small" color="text-body-secondary">
                      Placeholders show as written here; each contact sees their own details.
                    </Box>
                  </SpaceBetween>
                )}
              </div>
              {isFragment && (
                <Box variant="small" color="text-body-secondary">
                  {HTML_FRAGMENT_NOTE}
                </Box>
              )}
            </SpaceBetween>
          </FormField>
          <HtmlEmailGuide />
        </SpaceBetween>
      </Container>
    </Form>
  );
}
