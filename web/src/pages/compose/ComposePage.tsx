import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Grid from '@cloudscape-design/components/grid';
import Modal from '@cloudscape-design/components/modal';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { composeMessages, type Campaign, type ComposeMode, type DraftInputBody, type SavedContactList } from '../../../../schema/api/campaigns';
import { listenMessages } from '../../../../schema/api/listenValues';
import { NO_FOLLOW_UPS } from '../../../../schema/api/followUpValues';
import { contactTypes } from '../../../../schema/api/options';
import { artistDetails } from '../../../../schema/api/profile';
import type { CampaignTemplate } from '../../../../schema/api/templates';
import { applyTemplateVariables, type TemplateVariableValues } from '../../../../schema/email/placeholders';
import { ApiError, errorMessage } from '../../api/client';
import { createDraft, deleteTemplate, generatePreview, listTemplates, replaceDraft, updateEmail } from '../../api/campaigns';
import { useAuth } from '../../auth/AuthContext';
import { useNotifications } from '../../notifications/NotificationsContext';
import { PageShell } from '../dashboard/PageShell';
import { plural } from '../../../../schema/plural';
import { CampaignTemplatesPicker } from './CampaignTemplatesPicker';
import { isHtmlDocument } from '../../../../schema/email/htmlDocument';
import type { EmailDraft } from './emailDraft';
import { EmailPreviewCard } from './EmailPreviewCard';
import { FollowUpsCard } from './FollowUpsCard';
import { emptyFollowUpsForm, followUpsOf, type FollowUpsForm } from './followUpsForm';
import { RecipientPreview } from './RecipientPreview';
import { RecipientsCard } from './RecipientsCard';
import { SendCampaign } from './send/SendCampaign';
import { TRACK_UPLOAD_ID, TrackInfoCard } from './TrackInfoCard';
import { aiTrackOf, aiTrackReady, emptyTrackForm, htmlTrackOf, listenFieldsReady, missingBeyondHint, trackLinkOf, type TrackForm } from './trackForm';
import { useRecipients } from './useRecipients';
import { useTrackPitchNotes } from './useTrackPitches';
import {
  clearComposeSession,
  DRAFT_PARAM,
  emptyComposeSession,
  htmlWorkOf,
  isEmptyComposeSession,
  readComposeSession,
  saveComposeSession,
  type HtmlSession,
} from './composeSession';
import { getCampaign } from '../campaigns/campaignsApi';
import { DraftOpener, type OpenedDraft } from './DraftOpener';

// HTML mode brings its templates and editor: downloaded when the artist first switches to it.
const HtmlModePanel = lazy(() => import('./html/HtmlModePanel').then((module) => ({ default: module.HtmlModePanel })));

const modeOptions = [
  { id: 'ai', text: 'AI Mode' },
  { id: 'html', text: 'HTML Mode' },
] as const;

/** A saved list that selects no one and shows every contact type: applied, it clears the selection. */
const clearedSelection: SavedContactList = { id: '', name: '', contact_types: [...contactTypes], selected_genres: [], contact_ids: [], created_at: '' };

/** Whether the server says the draft is gone or no longer a draft (deleted, or sent from another tab). */
const isLostDraft = (error: unknown) =>
  error instanceof ApiError && (error.status === 409 || (error.status === 404 && error.message === composeMessages.campaignNotFound));

/** The track fields a template names, with the labels of the Track Information card. */
const TEMPLATE_TRACK_FIELDS = [
  { variable: 'track_name', label: 'Track Name' },
  { variable: 'track_url', label: 'Track URL' },
  { variable: 'description', label: 'Track Description' },
] as const;

/**
 * A template filled with the track and the artist. A track field still blank keeps its placeholder
 * ('{{track_name}}') rather than a blank, and is named in `missing`, so the email never reads as if
 * the track had no name.
 */
function filledTemplate(template: CampaignTemplate, form: TrackForm, signer: { name: string; links: { label: string; url: string }[] }) {
  const values: TemplateVariableValues = {
    track_name: form.track_name.trim(),
    // An uploaded track without a link: [TRACK_URL], which sending fills with each recipient's listen link.
    track_url: form.track_url.trim() === '' && form.track_id !== '' ? '[TRACK_URL]' : trackLinkOf(form),
    description: form.description.trim(),
    artist_name: signer.name,
    social_links: signer.links,
  };
  const uses = (variable: string) => new RegExp(`\\{\\{\\s*${variable}\\s*\\}\\}`, 'i').test(template.subject_template + template.body_template);
  const missing: string[] = [];
  for (const { variable, label } of TEMPLATE_TRACK_FIELDS) {
    if (values[variable] !== '' || !uses(variable)) continue;
    values[variable] = `{{${variable}}}`;
    missing.push(label);
  }
  return {
    email: {
      subject: applyTemplateVariables(template.subject_template, values, 'text'),
      body: applyTemplateVariables(template.body_template, values, isHtmlDocument(template.body_template) ? 'html' : 'text'),
    },
    missing,
  };
}

/** 'Use the private listen page' without an uploaded track, and once switched. */
export const LISTEN_PAGE_NEEDS_UPLOAD = 'Upload the track or pick one from My tracks: each recipient then gets a private listen page.';
export const LISTEN_PAGE_SWITCHED = "The email now links each recipient's private listen page.";

/** Thrown after a failure the page has already told the user about. */
class Reported extends Error {}

/**
 * /dashboard/compose (spec §2 Compose). With ?draft=<id> ('Continue in Compose' on the Campaigns pages)
 * the draft is read and opened first (DraftOpener); then the compose session, kept or opened, is worked on.
 */
export default function ComposePage() {
  const { user } = useAuth();
  const userId = user?.userId ?? null;
  const [params, setParams] = useSearchParams();
  const requested = params.get(DRAFT_PARAM);
  /** The draft opened last; the workspace is mounted afresh for each one, starting from it. */
  const [opened, setOpened] = useState<{ draft: OpenedDraft; count: number } | null>(null);

  // The address loses ?draft= once handled, so a reload or Back does not ask again.
  const showSession = useCallback(() => setParams({}, { replace: true }), [setParams]);
  const open = useCallback(
    (draft: OpenedDraft) => {
      if (userId !== null) saveComposeSession(userId, draft.session);
      setOpened((current) => ({ draft, count: (current?.count ?? 0) + 1 }));
      showSession();
    },
    [userId, showSession],
  );

  if (requested !== null) return <DraftOpener key={requested} draftId={requested} onOpen={open} onKeep={showSession} />;
  return <ComposeWorkspace key={opened?.count ?? 0} opened={opened?.draft ?? null} />;
}

/**
 * The compose workspace: the track, the recipients, and the email, written by the AI writer (AI mode) or
 * from an HTML template (HTML mode). Generating or saving creates one draft campaign, which later saves
 * rewrite, so a compose session leaves one draft. Switching modes keeps the track and the selection.
 * 'Send Campaign' sends the draft of the current mode; once it is queued the page starts afresh (spec §4
 * Sending flow).
 */
function ComposeWorkspace({ opened }: { opened: OpenedDraft | null }) {
  const { api, profile, user } = useAuth();
  const userId = user?.userId ?? null;
  const { notify } = useNotifications();
  /** The session this user left here earlier in this tab (a visit to Contacts, a reload) or the draft just opened, read once. */
  const [restored] = useState(() => opened?.session ?? (userId === null ? null : readComposeSession(userId)) ?? emptyComposeSession);
  /** An opened draft keeps no recipient list: say so until they are chosen or the note is dismissed. */
  const [recipientsNote, setRecipientsNote] = useState(opened?.recipientsToChoose === true ? opened.campaign.total_recipients : null);
  const recipients = useRecipients(restored.selected_ids);
  const [mode, setMode] = useState<ComposeMode>(restored.mode);
  const [track, setTrack] = useState<TrackForm>(restored.track);
  /** Who passed on this track or already received it, shown in the picker before a draft exists (issue 28 §2). */
  const pitchNotes = useTrackPitchNotes(track);
  /** The draft of this compose session (AI or HTML), once one was created, read back or opened. */
  const [campaign, setCampaign] = useState<Campaign | null>(opened?.campaign ?? null);
  /** A kept session's draft id until the draft is read back: writes meanwhile still go to that draft. */
  const [restoringDraftId, setRestoringDraftId] = useState<string | null>(opened ? null : restored.campaign_id);
  /** HTML mode's template, subject and HTML, as kept in the session. */
  const [htmlSession, setHtmlSession] = useState<HtmlSession | null>(restored.html);
  const keepHtml = useCallback((html: HtmlSession) => setHtmlSession(htmlWorkOf(html)), []);
  /** The one draft this session writes to: previews and saves rewrite it instead of adding drafts. */
  const draftId = campaign?.id ?? restoringDraftId;
  /** AI mode's email being edited (after Edit, a template or the Custom Template). */
  const [editing, setEditing] = useState<EmailDraft | null>(restored.editing);
  const [generating, setGenerating] = useState(false);
  const [templates, setTemplates] = useState<readonly CampaignTemplate[] | null>(null);
  /** HTML mode is mounted when first chosen and then kept (its typed HTML survives a visit to AI mode). */
  const [htmlShown, setHtmlShown] = useState(restored.mode === 'html');
  /** Changed after a send or a discard: the track card and HTML mode start afresh (what they hold themselves included). */
  const [sendSession, setSendSession] = useState(0);
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  /** The template last applied, the email it gave and the track fields it still waits for. */
  const [appliedTemplate, setAppliedTemplate] = useState<{ template: CampaignTemplate; email: EmailDraft; missing: string[] } | null>(null);
  const [followUpsForm, setFollowUpsForm] = useState<FollowUpsForm>(restored.follow_ups);
  /** A send was refused for the follow-ups: every problem in them is shown. */
  const [followUpsRefused, setFollowUpsRefused] = useState(false);
  const checkedFollowUps = useMemo(() => followUpsOf(followUpsForm), [followUpsForm]);
  const refuseFollowUps = useCallback(() => setFollowUpsRefused(true), []);
  /** What the per-recipient preview shows beside the first email: the steps once they are valid. */
  const previewedFollowUps = checkedFollowUps.ok ? checkedFollowUps.followUps : NO_FOLLOW_UPS;

  const selected = recipients.selected;
  const canGenerate = aiTrackReady(track) && selected.length > 0;
  const aiCampaign = campaign?.mode === 'ai' ? campaign : null;
  /** What 'Send Campaign' sends: the draft whose preview the current mode shows. */
  const sendableCampaign = mode === 'ai' ? aiCampaign : campaign?.mode === 'html' ? campaign : null;
  /** Shown under the spec's hint: the * fields it does not name. */
  const stillNeeded = canGenerate ? [] : missingBeyondHint(track);

  const artist = useMemo(() => (profile ? artistDetails(profile) : { name: '', links: [] }), [profile]);
  const { track_name, track_url, genre, description } = track;
  // HTML templates link the track as it will be stored ('soundcloud.com/…' typed is https://…).
  const htmlPanelTrack = useMemo(
    () => ({ track_name, track_url: trackLinkOf({ track_url }) || track_url, genre, description }),
    [track_name, track_url, genre, description],
  );
  const savedHtmlPreview = useMemo(
    () => (campaign && campaign.mode === 'html' ? { subject: campaign.email_subject, body: campaign.email_body } : null),
    [campaign],
  );

  // The handlers below read the page's latest values through this ref, so they keep one identity and
  // the memoised cards beside the track form do not re-render on every keystroke in it.
  const applySavedList = recipients.applySavedList;
  const latest = useRef({ track, artist, campaign, draftId, selected, canGenerate, applySavedList, appliedTemplate, editing });
  useLayoutEffect(() => {
    latest.current = { track, artist, campaign, draftId, selected, canGenerate, applySavedList, appliedTemplate, editing };
  });

  const changeTrack = useCallback((changes: Partial<TrackForm>) => {
    const { track: current, appliedTemplate: applied, editing: email, artist: signer } = latest.current;
    const next = { ...current, ...changes };
    setTrack(next);
    // A template applied before the track details: its placeholders are filled as the details come, while
    // the email is still as applied (an edit by the artist is never overwritten).
    if (!applied || applied.missing.length === 0 || email?.subject !== applied.email.subject || email.body !== applied.email.body) return;
    const filled = filledTemplate(applied.template, next, signer);
    setEditing(filled.email);
    setAppliedTemplate({ template: applied.template, email: filled.email, missing: filled.missing });
  }, []);

  // Everything typed and chosen is kept for this user as it changes, so leaving the page loses nothing.
  const selectedIds = recipients.selectedIds;
  useEffect(() => {
    if (userId === null) return;
    saveComposeSession(userId, { mode, track, editing, campaign_id: draftId, selected_ids: [...selectedIds], html: htmlSession, follow_ups: followUpsForm });
  }, [userId, mode, track, editing, draftId, selectedIds, htmlSession, followUpsForm]);

  /**
   * When the server says the draft is lost, the page forgets it, so that the next try starts a new draft
   * instead of failing the same way again.
   */
  const forgetLostDraft = useCallback((error: unknown) => {
    if (!isLostDraft(error)) return;
    setCampaign(null);
    setRestoringDraftId(null);
  }, []);

  // A kept session's draft is read back, so its preview shows again; one deleted or sent meanwhile is forgotten.
  // A draft just opened was read by the opener.
  useEffect(() => {
    const id = restored.campaign_id;
    if (id === null || opened?.campaign.id === id) return;
    const controller = new AbortController();
    getCampaign(api, id, { signal: controller.signal }).then(
      (found) => {
        if (controller.signal.aborted) return;
        setRestoringDraftId(null);
        // A preview written while it loaded is newer than what was read.
        if (found.status === 'draft') setCampaign((current) => current ?? found);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // Another failure keeps the id: the next write still goes to this draft, or says why it cannot.
        if (isLostDraft(error) || (error instanceof ApiError && error.status === 404)) setRestoringDraftId(null);
      },
    );
    return () => controller.abort();
  }, [api, restored, opened]);

  useEffect(() => {
    const controller = new AbortController();
    listTemplates(api, { signal: controller.signal }).then(
      (list) => {
        if (!controller.signal.aborted) setTemplates(list);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setTemplates([]);
        notify({ type: 'error', title: composeMessages.templatesLoadFailed, message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [api, notify]);

  async function generate() {
    const first = selected[0];
    if (!canGenerate || !first || generating) return;
    setGenerating(true);
    try {
      // The preview is written for the first selected recipient; a second press rewrites the same draft.
      const draft = await generatePreview(api, {
        ...(draftId ? { campaign_id: draftId } : {}),
        track: aiTrackOf(track),
        contact_id: first.id,
        total_recipients: selected.length,
      });
      setCampaign(draft);
      setEditing(null);
    } catch (error) {
      if (draftId) forgetLostDraft(error);
      notify({ type: 'error', title: composeMessages.generateFailed, message: errorMessage(error) });
    } finally {
      setGenerating(false);
    }
  }

  /** Writes a draft with this content: the current draft replaced, or a new one. */
  const writeDraft = useCallback(
    (input: DraftInputBody) => {
      const current = latest.current.draftId;
      return current ? replaceDraft(api, current, input) : createDraft(api, input);
    },
    [api],
  );

  const saveEmail = useCallback(
    async (draft: EmailDraft) => {
      const { track: form, campaign: current, draftId: currentId, selected: chosen, canGenerate: ready } = latest.current;
      const aiDraft = current?.mode === 'ai' ? current : null;
      if (draft.subject.trim() === '' || draft.body.trim() === '') {
        notify({ type: 'error', title: composeMessages.saveEmailFailed, message: composeMessages.emailSubjectAndBodyRequired });
        throw new Reported();
      }
      // An email from a template has no AI draft yet: creating one needs the track and recipients.
      if (!aiDraft && !ready) {
        notify({ type: 'error', title: composeMessages.previewNeeds });
        throw new Reported();
      }
      let saved: Campaign;
      try {
        saved = aiDraft
          ? await updateEmail(api, aiDraft.id, { email_subject: draft.subject, email_body: draft.body })
          : await writeDraft({ mode: 'ai', track: aiTrackOf(form), email_subject: draft.subject, email_body: draft.body, total_recipients: chosen.length });
      } catch (error) {
        if (currentId) forgetLostDraft(error);
        notify({ type: 'error', title: composeMessages.saveEmailFailed, message: errorMessage(error) });
        throw new Reported();
      }
      setCampaign(saved);
      setEditing(null);
      notify({ type: 'success', title: composeMessages.emailUpdatedTitle, message: composeMessages.emailUpdated });
    },
    [api, notify, writeDraft, forgetLostDraft],
  );

  const applyTemplate = useCallback(
    (template: CampaignTemplate) => {
      const { track: form, artist: signer } = latest.current;
      const filled = filledTemplate(template, form, signer);
      setEditing(filled.email);
      setAppliedTemplate({ template, email: filled.email, missing: filled.missing });
      changeTrack({ ai_tone: template.ai_tone });
      notify({ type: 'success', title: composeMessages.templateApplied, message: `"${template.name}" is ready to edit.` });
    },
    [changeTrack, notify],
  );

  const stillUnfilled = appliedTemplate && editing?.body === appliedTemplate.email.body ? appliedTemplate.missing : [];

  const startCustom = useCallback(() => setEditing({ subject: '', body: '' }), []);

  const removeTemplate = useCallback(
    async (template: CampaignTemplate) => {
      try {
        await deleteTemplate(api, template.id);
        setTemplates((list) => (list ?? []).filter((item) => item.id !== template.id));
        notify({ type: 'success', title: 'Template deleted', message: `"${template.name}" was deleted.` });
      } catch (error) {
        notify({ type: 'error', title: 'Failed to delete template', message: errorMessage(error) });
      }
    },
    [api, notify],
  );

  const addTemplate = useCallback((template: CampaignTemplate) => {
    // Listed after the system templates, by name, as the server lists them.
    setTemplates((list) => {
      const current = list ?? [];
      const system = current.filter((item) => item.is_system_template);
      const own = [...current.filter((item) => !item.is_system_template), template].sort((a, b) => a.name.localeCompare(b.name));
      return [...system, ...own];
    });
  }, []);

  const createHtmlPreview = useCallback(
    async ({ subject, body }: { subject: string; body: string }) => {
      const { track: form, selected: chosen } = latest.current;
      // HTML mode's track fields are optional (spec §5 defaults): only the recipients can be missing.
      if (chosen.length === 0) {
        notify({ type: 'error', title: composeMessages.selectRecipient });
        throw new Error(composeMessages.selectRecipient);
      }
      if (!listenFieldsReady(form)) {
        notify({ type: 'error', title: composeMessages.createPreviewFailed, message: listenMessages.listenDaysRange });
        throw new Error(listenMessages.listenDaysRange);
      }
      try {
        const saved = await writeDraft({ mode: 'html', track: htmlTrackOf(form), email_subject: subject, email_body: body, total_recipients: chosen.length });
        setCampaign(saved);
        setEditing(null);
        notify({ type: 'success', title: composeMessages.htmlPreviewCreated });
      } catch (error) {
        if (latest.current.draftId) forgetLostDraft(error);
        notify({ type: 'error', title: composeMessages.createPreviewFailed, message: errorMessage(error) });
        throw error;
      }
    },
    [notify, writeDraft, forgetLostDraft],
  );

  /**
   * 'Use the private listen page' (issue 28 §2, a label taking private links only): with a track uploaded
   * in the form, the draft is saved with it, and every email links each recipient's own listen page in
   * place of the public link (lambdas/core/compose.ts recipientEmail). Saved as the email shown, the
   * email is then the same for every recipient. Without an uploaded track, the upload field is shown.
   */
  const switchToListenPage = useCallback(async () => {
    const { track: form, campaign: current, selected: chosen } = latest.current;
    if (form.track_id === '' || !current) {
      // jsdom has no scrollIntoView: the type says it may be missing.
      const field: (Partial<Pick<HTMLElement, 'scrollIntoView'>> & Pick<HTMLElement, 'querySelector'>) | null = document.getElementById(TRACK_UPLOAD_ID);
      field?.scrollIntoView?.({ block: 'center' });
      field?.querySelector<HTMLElement>('button')?.focus();
      notify({ type: 'info', title: LISTEN_PAGE_NEEDS_UPLOAD });
      return;
    }
    const email = { email_subject: current.email_subject, email_body: current.email_body, total_recipients: Math.max(chosen.length, 1) };
    try {
      const saved = await writeDraft(
        current.mode === 'ai' ? { mode: 'ai', track: aiTrackOf(form), ...email } : { mode: 'html', track: htmlTrackOf(form), ...email },
      );
      setCampaign(saved);
      setEditing(null);
      notify({ type: 'success', title: LISTEN_PAGE_SWITCHED });
    } catch (error) {
      forgetLostDraft(error);
      notify({ type: 'error', title: composeMessages.saveEmailFailed, message: errorMessage(error) });
    }
  }, [notify, writeDraft, forgetLostDraft]);
  const offerListenPage = useCallback(() => void switchToListenPage(), [switchToListenPage]);

  /**
   * Spec §4 Sending flow: after a send the form, the selection, the preview and the draft reset; 'Discard'
   * does the same (the saved draft, if any, stays on the Campaigns page). The kept session goes with them.
   */
  const startAfresh = useCallback(() => {
    setTrack(emptyTrackForm);
    setCampaign(null);
    setRestoringDraftId(null);
    setEditing(null);
    setHtmlSession(null);
    setRecipientsNote(null);
    setFollowUpsForm(emptyFollowUpsForm);
    setFollowUpsRefused(false);
    setSendSession((n) => n + 1);
    // An empty list with every contact type: no selection, and the filters back to where they start.
    latest.current.applySavedList(clearedSelection);
    if (userId !== null) clearComposeSession(userId);
  }, [userId]);

  const discard = () => {
    startAfresh();
    setConfirmingDiscard(false);
    notify({ type: 'success', title: 'Compose session discarded' });
  };

  /** Nothing to discard on a page as it opens. */
  const hasWork = !isEmptyComposeSession({
    mode: 'ai',
    track,
    editing,
    campaign_id: draftId,
    selected_ids: [...selectedIds],
    html: htmlSession,
    follow_ups: followUpsForm,
  });

  return (
    <PageShell
      title="Compose Campaign"
      description="Pitch your track with a personal email to each contact."
      actions={
        <SpaceBetween direction="horizontal" size="xs" alignItems="center">
          <Button disabled={!hasWork} onClick={() => setConfirmingDiscard(true)}>
            Discard
          </Button>
          <SegmentedControl
            label="Compose mode"
            selectedId={mode}
            options={[...modeOptions]}
            onChange={({ detail }) => {
              const next: ComposeMode = detail.selectedId === 'html' ? 'html' : 'ai';
              if (next === 'html') setHtmlShown(true);
              setMode(next);
            }}
          />
        </SpaceBetween>
      }
    >
      {/* Mounted only while open, so its Discard is the page's only other one. */}
      {confirmingDiscard && (
        <Modal
          visible
          onDismiss={() => setConfirmingDiscard(false)}
          header="Discard this campaign?"
          footer={
            <Box float="right">
              <SpaceBetween direction="horizontal" size="xs">
                <Button variant="link" onClick={() => setConfirmingDiscard(false)}>
                  Cancel
                </Button>
                <Button variant="primary" onClick={discard}>
                  Discard
                </Button>
              </SpaceBetween>
            </Box>
          }
        >
          The track details, the recipients and the email you wrote are cleared from Compose. A draft already saved stays on the Campaigns page, where you can
          continue it in Compose or delete it.
        </Modal>
      )}
      {/* Two columns from a laptop's content width (Cloudscape's s: 912 px), as spec §2 lays the page out. */}
      <Grid gridDefinition={[{ colspan: { default: 12, s: 6 } }, { colspan: { default: 12, s: 6 } }]}>
        <SpaceBetween size="l">
          {recipientsNote !== null && selected.length < recipientsNote && (
            <Alert type="info" dismissible onDismiss={() => setRecipientsNote(null)} header="Choose the recipients again">
              {`This draft was saved for ${plural(recipientsNote, 'recipient')}. A draft keeps its email but not its recipient list: select them below.`}
            </Alert>
          )}
          <TrackInfoCard key={sendSession} mode={mode} form={track} onChange={changeTrack} />
          <RecipientsCard recipients={recipients} pitchNotes={pitchNotes} />
          {mode === 'ai' && (
            <SpaceBetween size="xs">
              <Button variant="primary" disabled={!canGenerate || generating} onClick={() => void generate()}>
                {generating ? 'Generating...' : 'Generate Email Preview'}
              </Button>
              {generating && <StatusIndicator type="loading">The AI writer is writing your email…</StatusIndicator>}
              {!canGenerate && <Box color="text-body-secondary">{composeMessages.previewNeeds}</Box>}
              {stillNeeded.length > 0 && <Box color="text-body-secondary">{`Still needed: ${stillNeeded.join(', ')}`}</Box>}
            </SpaceBetween>
          )}
        </SpaceBetween>
        <SpaceBetween size="l">
          {/* Both modes stay mounted once shown (the hidden one out of sight and out of the
              accessibility tree), so switching back finds the picker, the edits and the HTML as left. */}
          <div hidden={mode !== 'ai'}>
            <SpaceBetween size="l">
              {stillUnfilled.length > 0 && (
                <Alert type="info" header="The template waits for your track details">
                  {`Fill in ${stillUnfilled.join(', ')}: the email shows its placeholder until you do.`}
                </Alert>
              )}
              <CampaignTemplatesPicker templates={templates} onApply={applyTemplate} onCustom={startCustom} onDelete={removeTemplate} />
              <EmailPreviewCard
                campaign={aiCampaign}
                editing={editing}
                onEditingChange={setEditing}
                onSave={saveEmail}
                tone={track.ai_tone}
                onTemplateSaved={addTemplate}
              />
            </SpaceBetween>
          </div>
          {htmlShown && (
            <div hidden={mode !== 'html'}>
              <Suspense fallback={<StatusIndicator type="loading">Loading HTML mode...</StatusIndicator>}>
                <HtmlModePanel
                  key={sendSession}
                  track={htmlPanelTrack}
                  artist={artist}
                  savedPreview={savedHtmlPreview}
                  onCreatePreview={createHtmlPreview}
                  initial={htmlSession}
                  onSessionChange={keepHtml}
                />
              </Suspense>
            </div>
          )}
          <FollowUpsCard form={followUpsForm} onChange={setFollowUpsForm} showErrors={followUpsRefused} />
          <SendCampaign
            campaign={sendableCampaign}
            recipients={selected}
            editing={mode === 'ai' && editing !== null}
            followUps={checkedFollowUps}
            onFollowUpsRefused={refuseFollowUps}
            onSent={startAfresh}
            unsubscribed={recipients.unsubscribed}
            onUseListenPage={offerListenPage}
          />
          {campaign && (
            <RecipientPreview
              campaign={campaign}
              recipients={selected}
              unsubscribed={recipients.unsubscribed}
              followUps={previewedFollowUps}
              onUseListenPage={offerListenPage}
            />
          )}
        </SpaceBetween>
      </Grid>
    </PageShell>
  );
}
