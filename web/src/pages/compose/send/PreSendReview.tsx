import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Checkbox from '@cloudscape-design/components/checkbox';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { plural } from '../../../../../schema/plural';
import { PreSendWarningList } from '../PreSendWarnings';
import styles from '../compose.module.css';
import type { PreSendChoices, WarnedRecipient } from './preSendPlan';

/**
 * The send dialog's pre-send check (issue 28 §2): how many recipients have warnings and how many are
 * left out, then each of them with their warnings and the artist's override: 'Send anyway' for a
 * form-only label or a contact who passed on the track (left out by default), 'Leave out' for a
 * warning that only warns.
 */
export function PreSendReview({
  warned,
  leftOut,
  choices,
  onSendAnyway,
  onExclude,
  onUseListenPage,
}: {
  warned: readonly WarnedRecipient[];
  /** How many the check leaves out of the emails to send (those skipped anyway, unsubscribed or already sent, not counted). */
  leftOut: number;
  choices: PreSendChoices;
  onSendAnyway: (contactId: string, on: boolean) => void;
  onExclude: (contactId: string, on: boolean) => void;
  onUseListenPage?: () => void;
}) {
  return (
    <div data-testid="pre-send-review">
      <SpaceBetween size="s">
        <Alert type="warning" header={`Pre-send check: ${plural(warned.length, 'recipient')} with warnings`} i18nStrings={{ warningIconAriaLabel: 'Warning' }}>
          {`${plural(leftOut, 'recipient is', 'recipients are')} left out of this send. A form-only label or a contact who passed on this track is left out unless you tick 'Send anyway'; the other warnings only warn.`}
        </Alert>
        <ExpandableSection headerText="Recipients with warnings" defaultExpanded>
          <ul className={styles.recipientRows} aria-label="Recipients with warnings">
            {warned.map((recipient) => {
              const { contact, warnings } = recipient;
              const skipping = warnings.some((warning) => warning.skipByDefault);
              return (
                <li key={contact.id} className={styles.recipientRow} aria-label={contact.name}>
                  <SpaceBetween size="xxs">
                    <Box fontWeight="bold">{`${contact.name} <${contact.email}>`}</Box>
                    <PreSendWarningList warnings={warnings} onUseListenPage={onUseListenPage} />
                    {skipping ? (
                      <Checkbox checked={choices.sendAnyway.has(contact.id)} onChange={({ detail }) => onSendAnyway(contact.id, detail.checked)}>
                        Send anyway
                      </Checkbox>
                    ) : (
                      <Checkbox checked={choices.excluded.has(contact.id)} onChange={({ detail }) => onExclude(contact.id, detail.checked)}>
                        Leave out
                      </Checkbox>
                    )}
                  </SpaceBetween>
                </li>
              );
            })}
          </ul>
        </ExpandableSection>
      </SpaceBetween>
    </div>
  );
}
