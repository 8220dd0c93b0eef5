import Alert from '@cloudscape-design/components/alert';
import Link from '@cloudscape-design/components/link';
import { sendingMessages } from '../../../../../schema/api/sending';
import { useFollow } from '../../../components/useFollow';

export const SETTINGS_PATH = '/dashboard/settings';
export const MAILBOX_TITLE = 'Mailbox not connected';

/** Sending needs a connected mailbox (DESIGN §4): says so, with the way to Settings. */
export function MailboxRequired() {
  const follow = useFollow();
  return (
    <Alert type="warning" i18nStrings={{ warningIconAriaLabel: 'Warning' }} header={MAILBOX_TITLE}>
      {sendingMessages.mailboxRequired}{' '}
      <Link href={SETTINGS_PATH} onFollow={follow}>
        Go to Settings
      </Link>
    </Alert>
  );
}
