import SpaceBetween from '@cloudscape-design/components/space-between';
import type { TilesProps } from '@cloudscape-design/components/tiles';
import { useEffect, useRef, useState } from 'react';
import {
  buildHtmlTemplate,
  customHtmlStarter,
  defaultHtmlSubject,
  htmlTemplateInfo,
  type HtmlTemplateInput,
  type HtmlTemplateKind,
} from '../../../../../schema/email/htmlTemplates';
import { emptyHtmlSession, type DesignedHtmlKind, type HtmlSession } from '../composeSession';
import type { AccentChoice } from './AccentColorField';
import { HtmlComposerCard, type HtmlDraft } from './HtmlComposerCard';
import { HtmlTemplateChooser } from './HtmlTemplateChooser';
import { SavedHtmlPreview } from './SavedHtmlPreview';
import { TemplateCustomiser } from './TemplateCustomiser';

export interface HtmlModePanelProps {
  /** The Track Information card's current values (may be blank in HTML mode). */
  track: { track_name: string; track_url: string; genre: string; description: string };
  /** The signed-in artist: name to sign with and public links. */
  artist: { name: string; links: { label: string; url: string }[] };
  /** Saves the draft (the page calls the API and toasts). Rejects on failure: keep everything typed. */
  onCreatePreview: (email: { subject: string; body: string }) => Promise<void>;
  /** The stored (server-sanitized) email once a preview exists, else null. */
  savedPreview: { subject: string; body: string } | null;
  /** The work kept in the compose session (a visit elsewhere, an opened draft), read when the panel mounts. */
  initial?: HtmlSession | null;
  /** Everything chosen and typed here, as it changes, for the compose session to keep. */
  onSessionChange?: (html: HtmlSession) => void;
}

type DesignedKind = DesignedHtmlKind;

const defaultAccent = (kind: HtmlTemplateKind): AccentChoice => ({
  colour: htmlTemplateInfo[kind].accent,
  text: htmlTemplateInfo[kind].accent,
});

/**
 * HTML mode of Compose (spec §2, §4 HTML mode): choose a template, customise it and create the preview,
 * then fine-tune its HTML in the composer; or write custom HTML from a starter. The page saves (and
 * toasts); this panel keeps everything typed, whatever the save's outcome.
 */
export function HtmlModePanel({ track, artist, onCreatePreview, savedPreview, initial, onSessionChange }: HtmlModePanelProps) {
  const [start] = useState(() => initial ?? emptyHtmlSession);
  const [kind, setKind] = useState<HtmlTemplateKind>(start.kind);
  /** Where 'Back to Templates' returns from Custom HTML. */
  const [lastDesigned, setLastDesigned] = useState<DesignedKind>(start.last_designed);
  /** null while the subject follows the track name (spec §2 default). */
  const [typedSubject, setTypedSubject] = useState<string | null>(start.typed_subject);
  /** null while the accent is the template's default (§9), so it changes with the template. */
  const [pickedAccent, setPickedAccent] = useState<AccentChoice | null>(start.accent);
  /** The composer's draft per template: kept when another tile is chosen, so edits are not lost by a click. */
  const [drafts, setDrafts] = useState<Partial<Record<HtmlTemplateKind, HtmlDraft>>>(start.drafts);
  const [saving, setSaving] = useState(false);
  const [focusComposer, setFocusComposer] = useState(false);
  const [focusTiles, setFocusTiles] = useState(0);
  const tilesRef = useRef<TilesProps.Ref>(null);

  const subject = typedSubject ?? defaultHtmlSubject(track.track_name);
  const accentOf = (of: HtmlTemplateKind) => pickedAccent ?? defaultAccent(of);
  const templateInput = (accent: string): HtmlTemplateInput => ({
    track_name: track.track_name,
    track_url: track.track_url,
    genre: track.genre,
    description: track.description,
    artist_name: artist.name,
    social_links: artist.links,
    accent,
  });

  // Kept as it changes, so leaving Compose (or a reload) comes back to the same HTML and subject.
  useEffect(() => {
    onSessionChange?.({ kind, last_designed: lastDesigned, typed_subject: typedSubject, accent: pickedAccent, drafts });
  }, [onSessionChange, kind, lastDesigned, typedSubject, pickedAccent, drafts]);

  // After 'Back to Templates' the composer is gone: give focus to the chooser, not to the page's top.
  useEffect(() => {
    if (focusTiles > 0) tilesRef.current?.focus();
  }, [focusTiles]);

  function choose(next: HtmlTemplateKind) {
    if (saving) return;
    setFocusComposer(false);
    if (next === 'custom') {
      setDrafts((current) =>
        current.custom ? current : { ...current, custom: { subject, body: customHtmlStarter(templateInput(accentOf('custom').colour)) } },
      );
    } else {
      setLastDesigned(next);
    }
    setKind(next);
  }

  function backToTemplates() {
    if (kind === 'custom') {
      // The custom code stays for when the artist comes back to it.
      setKind(lastDesigned);
    } else {
      // From a template's composer: start again from the template's form.
      setDrafts(({ [kind]: _dropped, ...rest }) => rest);
    }
    setFocusComposer(false);
    setFocusTiles((count) => count + 1);
  }

  /** Saves through the page. On failure the page has toasted; everything typed stays as it was. */
  async function save(email: HtmlDraft): Promise<boolean> {
    setSaving(true);
    try {
      await onCreatePreview(email);
      return true;
    } catch {
      return false;
    } finally {
      setSaving(false);
    }
  }

  async function createFromTemplate(of: DesignedKind) {
    const email = { subject: subject.trim(), body: buildHtmlTemplate(of, templateInput(accentOf(of).colour)) };
    if (await save(email)) {
      setDrafts((current) => ({ ...current, [of]: email }));
      setFocusComposer(true);
    }
  }

  const draft = drafts[kind];
  let workArea = null;
  if (draft) {
    workArea = (
      <HtmlComposerCard
        key={kind}
        description={
          kind === 'custom'
            ? 'Write your own HTML email: edit the starter below or paste your own code.'
            : `Fine-tune the ${htmlTemplateInfo[kind].name} template's HTML. Back to Templates starts again from the template.`
        }
        draft={draft}
        onChange={(next) => setDrafts((current) => ({ ...current, [kind]: next }))}
        onCreatePreview={(email) => void save(email)}
        onBack={backToTemplates}
        saving={saving}
        focusOnOpen={focusComposer}
      />
    );
  } else if (kind !== 'custom') {
    workArea = (
      <TemplateCustomiser
        kind={kind}
        subject={subject}
        onSubjectChange={setTypedSubject}
        accent={accentOf(kind)}
        onAccentChange={setPickedAccent}
        onCreatePreview={() => void createFromTemplate(kind)}
        saving={saving}
      />
    );
  }

  return (
    <SpaceBetween size="l">
      <HtmlTemplateChooser ref={tilesRef} value={kind} onChange={choose} disabled={saving} />
      {workArea}
      {savedPreview ? <SavedHtmlPreview email={savedPreview} /> : null}
    </SpaceBetween>
  );
}
