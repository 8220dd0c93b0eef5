import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useState } from 'react';
import type { Contact } from '../../../../schema/api/contacts';
import { listContactTracks } from '../../api/pipeline';
import { useFollow } from '../../components/useFollow';
import { formatDateTime } from '../campaigns/campaignView';
import { formatDay, stageColors, stageLabel, trackPipelinePath } from '../tracks/pipelineView';
import styles from './contacts.module.css';
import { ContactReadFailed, useContactRead } from './useContactRead';

export const CONTACT_TRACKS_TITLE = 'Tracks pitched';

/** 'Nov 3, 2026' for the day the artist gave (YYYY-MM-DD) or the day of a time. */
function passedDay(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDay(value);
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

function TracksList({ contact }: { contact: Contact }) {
  const follow = useFollow();
  const { state, retry } = useContactRead(contact.id, listContactTracks);

  if (state.kind === 'loading') return <StatusIndicator type="loading">Loading tracks</StatusIndicator>;
  if (state.kind === 'failed') return <ContactReadFailed what="tracks" message={state.message} onRetry={retry} />;
  if (state.items.length === 0) return <Box color="text-body-secondary">No track pitched to this contact yet.</Box>;
  return (
    <ul aria-label={`${CONTACT_TRACKS_TITLE} to ${contact.name}`} className={styles.contactEmails}>
      {state.items.map((track) => (
        <li key={track.track_key}>
          <SpaceBetween size="xxs">
            <SpaceBetween direction="horizontal" size="xs" alignItems="center">
              <Link href={trackPipelinePath(track.track_key)} onFollow={follow} fontSize="body-s">
                {track.track_name}
              </Link>
              <Badge color={stageColors[track.stage]}>{stageLabel(track.stage)}</Badge>
            </SpaceBetween>
            <Box variant="small" color="text-body-secondary">
              {track.passed_at ? `Passed on ${passedDay(track.passed_at)}` : `Pitched ${formatDateTime(track.pitched_at)}`}
            </Box>
          </SpaceBetween>
        </li>
      ))}
    </ul>
  );
}

/**
 * Every track pitched to a contact, on its card (issue 28 §1), each with its stage and a link to the
 * track's board; 'Passed on Nov 3' where they passed (a track they passed on is not pitched to them again).
 * Collapsed, and read, only once opened.
 */
export function ContactTracks({ contact }: { contact: Contact }) {
  const [expanded, setExpanded] = useState(false);
  return (
    <ExpandableSection
      headerText={CONTACT_TRACKS_TITLE}
      headerAriaLabel={`${CONTACT_TRACKS_TITLE} to ${contact.name} (${contact.email})`}
      expanded={expanded}
      onChange={({ detail }) => setExpanded(detail.expanded)}
    >
      {expanded && <TracksList contact={contact} />}
    </ExpandableSection>
  );
}
