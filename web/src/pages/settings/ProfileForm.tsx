import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input, { type InputProps } from '@cloudscape-design/components/input';
import { TimeZoneSelect } from '../../components/TimeZoneSelect';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useMemo, useState, type SubmitEvent } from 'react';
import { normaliseLink, type LinkField } from '../../../../schema/api/links';
import type { Profile } from '../../../../schema/api/profile';
import { ApiError, errorMessage } from '../../api/client';
import { updateProfile } from '../../api/profile';
import { useAuth } from '../../auth/AuthContext';
import { useNotifications } from '../../notifications/NotificationsContext';
import { browserTimeZone, timeZoneOptions } from '../../lib/timeZones';

/** The fields the form edits, as typed (blank clears an optional one). */
const fields = ['full_name', 'artist_name', 'bio', 'website_url', 'soundcloud_url', 'spotify_url', 'instagram_url', 'time_zone'] as const;
type Field = (typeof fields)[number];
type Draft = Record<Field, string>;

const linkFields: { field: Field; label: string; placeholder: string; kind: LinkField }[] = [
  { field: 'website_url', label: 'Website', placeholder: 'yourname.com', kind: 'website' },
  { field: 'soundcloud_url', label: 'SoundCloud', placeholder: 'soundcloud.com/yourname', kind: 'website' },
  { field: 'spotify_url', label: 'Spotify', placeholder: 'open.spotify.com/artist/…', kind: 'website' },
  { field: 'instagram_url', label: 'Instagram', placeholder: '@yourname or instagram.com/yourname', kind: 'instagram' },
];

/** The draft with each typed link as it will be stored ('soundcloud.com/x' → 'https://soundcloud.com/x'). */
const withLinksNormalised = (draft: Draft): Draft =>
  linkFields.reduce((next, { field, kind }) => ({ ...next, [field]: normaliseLink(draft[field], kind) ?? draft[field] }), draft);

/** Spec §8 Profile update. */
export const profileMessages = { updated: 'Profile Updated', failed: 'Error' } as const;

/** The profile as the form shows it; a profile without a time zone offers this browser's (saved with the form). */
const draftOf = (profile: Profile): Draft =>
  ({ ...Object.fromEntries(fields.map((field) => [field, profile[field] ?? ''])), time_zone: profile.time_zone ?? browserTimeZone() }) as Draft;

/**
 * The first problem with each field, by the same rules the server applies (schema/api/profile.ts). The
 * schema module is loaded on demand: the dashboard prefetches it, and a static import would make the
 * bundler split out a runtime chunk every route then downloads.
 */
async function problemsOf(draft: Draft): Promise<Partial<Record<Field, string>>> {
  const { profileUpdateSchema } = await import('../../../../schema/api/profile');
  const result = profileUpdateSchema.safeParse(draft);
  if (result.success) return {};
  const problems: Partial<Record<Field, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    problems[field] ??= issue.message;
  }
  return problems;
}

/**
 * The Profile Information form (spec §2 Settings): the artist's name, bio and links, which their emails
 * sign with ([ARTIST_NAME], {{SOCIAL_LINKS}}). Checked as the server checks it before anything is sent;
 * what was typed stays until the server has saved it.
 */
export function ProfileForm({ profile }: { profile: Profile }) {
  const { api, patchProfile } = useAuth();
  const { notify } = useNotifications();
  const [draft, setDraft] = useState<Draft>(() => draftOf(profile));
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const zoneOptions = useMemo(() => timeZoneOptions(draft.time_zone), [draft.time_zone]);

  const bind = (field: Field) => ({
    value: draft[field],
    disabled: saving,
    onChange: ({ detail }: { detail: { value: string } }) => {
      setDraft((current) => ({ ...current, [field]: detail.value }));
      // A corrected field stops showing its problem; the others keep theirs until the next save.
      setProblems((current) => (current[field] ? { ...current, [field]: undefined } : current));
    },
  });

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setFormError(null);
    try {
      const found = await problemsOf(draft);
      setProblems(found);
      if (Object.keys(found).length > 0) return;
      // Sent as stored, so the form shows the same links whether or not the server answers with them.
      const normalised = withLinksNormalised(draft);
      setDraft(normalised);
      const saved = await updateProfile(api, normalised);
      patchProfile(saved);
      setDraft(draftOf(saved));
      notify({ type: 'success', title: profileMessages.updated });
    } catch (error) {
      console.error('Profile update failed', error);
      const message = errorMessage(error);
      if (error instanceof ApiError && error.status === 400) setFormError(message);
      notify({ type: 'error', title: profileMessages.failed, message });
    } finally {
      setSaving(false);
    }
  }

  const linkInput = (field: Field, placeholder: string): InputProps => ({
    ...bind(field),
    type: 'url',
    inputMode: 'url',
    placeholder,
    spellcheck: false,
    autoComplete: false,
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Profile Information">
      <Form
        errorText={formError ?? undefined}
        errorIconAriaLabel="Error"
        actions={
          <Button variant="primary" loading={saving} loadingText="Saving your profile">
            Save Changes
          </Button>
        }
      >
        <Container
          header={
            <Header variant="h2" description="How you sign your pitches, and the links they carry.">
              Profile Information
            </Header>
          }
        >
          <SpaceBetween size="m">
            <ColumnLayout columns={2} minColumnWidth={220}>
              <FormField label="Full Name" errorText={problems.full_name}>
                <Input {...bind('full_name')} autoComplete="name" />
              </FormField>
              <FormField label="Artist Name" description="Emails sign with it; without one, with your full name." errorText={problems.artist_name}>
                <Input {...bind('artist_name')} />
              </FormField>
            </ColumnLayout>
            <FormField label="Bio" errorText={problems.bio} constraintText="At most 1,000 characters.">
              <Textarea {...bind('bio')} rows={3} />
            </FormField>
            <FormField
              label="Time zone"
              description="Campaigns sent in recipients' working hours use it for a recipient whose time zone is not known."
              errorText={problems.time_zone}
            >
              <TimeZoneSelect
                value={draft.time_zone}
                options={zoneOptions}
                disabled={saving}
                onChange={(zone) => setDraft((current) => ({ ...current, time_zone: zone }))}
              />
            </FormField>
            <ColumnLayout columns={2} minColumnWidth={220}>
              {linkFields.map(({ field, label, placeholder }) => (
                <FormField key={field} label={label} errorText={problems[field]}>
                  <Input {...linkInput(field, placeholder)} />
                </FormField>
              ))}
            </ColumnLayout>
          </SpaceBetween>
        </Container>
      </Form>
    </form>
  );
}
