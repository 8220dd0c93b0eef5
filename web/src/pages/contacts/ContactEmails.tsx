import Box from '@cloudscape-design/components/box';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useState } from 'react';
import type { Contact } from '../../../../schema/api/contacts';
import type { ContactEmail } from '../../../../schema/api/sending';
import { listContactEmails } from '../../api/sending';
import { RepliedMark } from '../../components/RepliedMark';
import { answerText } from '../../lib/listenFacts';
import { formatDateTime } from '../campaigns/campaignView';
import styles from './contacts.module.css';
import { ContactReadFailed, useContactRead } from './useContactRead';

export const CONTACT_EMAILS_TITLE = 'Emails sent';

/** The emails list, read when the section is first opened (a page of cards costs no request until then). */
function EmailsList({ contact }: { contact: Contact }) {
  const { state, setState, retry } = useContactRead(contact.id, listContactEmails);

  if (state.kind === 'loading') return <StatusIndicator type="loading">Loading emails</StatusIndicator>;
  if (state.kind === 'failed') return <ContactReadFailed what="emails" message={state.message} onRetry={retry} />;
  if (state.items.length === 0) return <Box color="text-body-secondary">No emails sent to this contact yet.</Box>;
  const marked = (email: ContactEmail, repliedAt: string | null) =>
    setState((current) =>
      current.kind === 'ready'
        ? {
            kind: 'ready',
            items: current.items.map((one) =>
              one.campaign_id === email.campaign_id && one.position === email.position ? { ...one, replied_at: repliedAt } : one,
            ),
          }
        : current,
    );
  return (
    <ul aria-label={`${CONTACT_EMAILS_TITLE} to ${contact.name}`} className={styles.contactEmails}>
      {state.items.map((email) => {
        const answer = answerText(email.answer);
        return (
          <li key={`${email.campaign_id}-${email.position}`}>
            <SpaceBetween size="xxs">
              <Box variant="small">
                <strong>{email.track_name}</strong>
                {` · ${formatDateTime(email.sent_at)}`}
                {answer !== null && ` · ${answer}`}
              </Box>
              {email.subject && (
                <Box variant="small" color="text-body-secondary">
                  <span className={styles.breakAnywhere}>{email.subject}</span>
                </Box>
              )}
              <RepliedMark
                campaignId={email.campaign_id}
                position={email.position}
                repliedAt={email.replied_at}
                onChange={(repliedAt) => marked(email, repliedAt)}
              />
            </SpaceBetween>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The emails sent to a contact, on its card (issue 27 §1): each with its track, time and subject, and the
 * artist's "Replied" mark. Collapsed until opened.
 */
export function ContactEmails({ contact }: { contact: Contact }) {
  const [expanded, setExpanded] = useState(false);
  return (
    <ExpandableSection
      headerText={CONTACT_EMAILS_TITLE}
      headerAriaLabel={`${CONTACT_EMAILS_TITLE} to ${contact.name} (${contact.email})`}
      expanded={expanded}
      onChange={({ detail }) => setExpanded(detail.expanded)}
    >
      {expanded && <EmailsList contact={contact} />}
    </ExpandableSection>
  );
}
