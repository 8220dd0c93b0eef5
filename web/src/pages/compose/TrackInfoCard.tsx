import Checkbox from '@cloudscape-design/components/checkbox';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { memo, useCallback, useState } from 'react';
import type { TrackSummary } from '../../../../schema/api/tracks';
import { campaignLimits, composeMessages, emailLengths, type ComposeMode } from '../../../../schema/api/campaigns';
import { genreLabels, genres, tones, type Tone } from '../../../../schema/api/options';
import { TrackUploader } from './TrackUploader';
import { bpmError, emailLengthOptionLabel, isBadTrackUrl, isEmailLength, isGenre, listenDaysError, toneLabels, type TrackForm } from './trackForm';

const genreOptions: SelectProps.Option[] = genres.map((genre) => ({ value: genre, label: genreLabels[genre] }));
const toneOptions: SelectProps.Option[] = tones.map((tone) => ({ value: tone, label: toneLabels[tone] }));
const lengthOptions: SelectProps.Option[] = emailLengths.map((length) => ({ value: String(length), label: emailLengthOptionLabel(length) }));

/** The upload field's element: 'Use the private listen page' brings it into view. */
export const TRACK_UPLOAD_ID = 'compose-track-upload';

export const TRACK_URL_PLACEHOLDER = 'https://soundcloud.com/your-name/your-track';

/**
 * After the field was left: blank is an error where the link is needed (AI mode without an uploaded
 * track, whose listen page is then the link), a non-link always.
 */
function trackUrlError(linkNeeded: boolean, value: string): string | undefined {
  if (linkNeeded && value.trim() === '') return composeMessages.trackUrlRequired;
  return isBadTrackUrl(value) ? composeMessages.trackUrlInvalid : undefined;
}

/**
 * The Track Information card (spec §2): what the email pitches. In AI mode the * fields are needed to
 * write it; in HTML mode they are optional (blanks take the spec §5 defaults on the server), so the
 * asterisks go, as do the AI writer's own fields (tone, length). Mood and BPM belong to the form data and sit folded under 'More details'.
 */
export const TrackInfoCard = memo(function TrackInfoCard({
  mode,
  form,
  onChange,
}: {
  mode: ComposeMode;
  form: TrackForm;
  onChange: (changes: Partial<TrackForm>) => void;
}) {
  const [urlTouched, setUrlTouched] = useState(false);
  const [bpmTouched, setBpmTouched] = useState(false);
  const required = mode === 'ai' ? ' *' : '';
  const linkNeeded = mode === 'ai' && form.track_id === '';

  const bindText = (field: 'track_name' | 'track_url' | 'mood' | 'bpm' | 'description') => ({
    value: form[field],
    onChange: ({ detail }: { detail: { value: string } }) => onChange({ [field]: detail.value }),
  });

  const urlError = urlTouched ? trackUrlError(linkNeeded, form.track_url) : undefined;
  const trackName = form.track_name;
  // An uploaded or picked track names the pitch when the name is still blank.
  const chooseTrack = useCallback(
    (track: TrackSummary | null) => onChange({ track_id: track?.id ?? '', ...(track && trackName.trim() === '' ? { track_name: track.name } : {}) }),
    [onChange, trackName],
  );
  const bpmMessage = bpmTouched ? (bpmError(form.bpm) ?? undefined) : undefined;

  return (
    <Container header={<Header variant="h2">Track Information</Header>}>
      <SpaceBetween size="m">
        <FormField label={`Track Name${required}`}>
          <Input {...bindText('track_name')} autoComplete="off" placeholder="e.g. Midnight Drive" />
        </FormField>
        <FormField label={`Track URL${linkNeeded ? ' *' : ''}`} errorText={urlError} constraintText="A SoundCloud, Spotify or other streaming link.">
          <Input
            {...bindText('track_url')}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellcheck={false}
            placeholder={TRACK_URL_PLACEHOLDER}
            invalid={urlError !== undefined}
            onBlur={() => {
              if (!urlTouched) setUrlTouched(true);
            }}
          />
        </FormField>
        <div id={TRACK_UPLOAD_ID}>
          <FormField label="Or upload the track" description="Upload the audio once and use it in any campaign.">
            <TrackUploader trackId={form.track_id} onChoose={chooseTrack} />
          </FormField>
        </div>
        {form.track_id !== '' && (
          <ColumnLayout columns={2} minColumnWidth={160}>
            <FormField label="Downloads" description="Each recipient gets a private listen page.">
              <Checkbox checked={form.allow_download} onChange={({ detail }) => onChange({ allow_download: detail.checked })}>
                Allow downloads
              </Checkbox>
            </FormField>
            <FormField label="Listen link valid for (days)" errorText={listenDaysError(form.listen_days) ?? undefined}>
              <Input
                value={form.listen_days}
                onChange={({ detail }) => onChange({ listen_days: detail.value })}
                type="number"
                inputMode="numeric"
                invalid={listenDaysError(form.listen_days) !== null}
              />
            </FormField>
          </ColumnLayout>
        )}
        <FormField label={`Genre${required}`}>
          <Select
            selectedOption={genreOptions.find((option) => option.value === form.genre) ?? null}
            options={genreOptions}
            placeholder="Choose a genre"
            onChange={({ detail }) => {
              const value = detail.selectedOption.value ?? '';
              if (isGenre(value)) onChange({ genre: value });
            }}
          />
        </FormField>
        <FormField label="Release" description="Labels that take unreleased music only are flagged before sending.">
          <Checkbox checked={form.released} onChange={({ detail }) => onChange({ released: detail.checked })}>
            Already released
          </Checkbox>
        </FormField>
        {/* Tone and length only steer the AI writer: an HTML email is written by the artist, so HTML mode
            hides them (their values stay, for a switch back to AI mode). */}
        {mode === 'ai' && (
          <ColumnLayout columns={2} minColumnWidth={160}>
            <FormField label="Email Tone">
              <Select
                selectedOption={toneOptions.find((option) => option.value === form.ai_tone) ?? null}
                options={toneOptions}
                onChange={({ detail }) => onChange({ ai_tone: detail.selectedOption.value as Tone })}
              />
            </FormField>
            <FormField label="Email Length">
              <Select
                selectedOption={lengthOptions.find((option) => option.value === String(form.email_length)) ?? null}
                options={lengthOptions}
                onChange={({ detail }) => {
                  const length = Number(detail.selectedOption.value);
                  if (isEmailLength(length)) onChange({ email_length: length });
                }}
              />
            </FormField>
          </ColumnLayout>
        )}
        <FormField label={`Track Description${required}`} constraintText={`At most ${campaignLimits.description.toLocaleString()} characters.`}>
          <Textarea {...bindText('description')} rows={3} placeholder="What makes the track stand out: sound, story, release plans." />
        </FormField>
        <ExpandableSection headerText="More details (optional)">
          <ColumnLayout columns={2} minColumnWidth={160}>
            <FormField label="Mood">
              <Input {...bindText('mood')} autoComplete="off" placeholder="e.g. Dark, euphoric" />
            </FormField>
            <FormField label="BPM" errorText={bpmMessage}>
              <Input
                {...bindText('bpm')}
                type="number"
                inputMode="numeric"
                invalid={bpmMessage !== undefined}
                onBlur={() => {
                  if (!bpmTouched) setBpmTouched(true);
                }}
              />
            </FormField>
          </ColumnLayout>
        </ExpandableSection>
      </SpaceBetween>
    </Container>
  );
});
