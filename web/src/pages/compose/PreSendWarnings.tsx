import Button from '@cloudscape-design/components/button';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { PreSendWarning } from '../../../../lambdas/core/preSendCheck';

/** What a skipping warning means for the send, said once under the warnings that skip. */
export const SKIPPED_UNLESS_INSISTED = "Left out when you send, unless you tick 'Send anyway' for them in the send dialog.";

/**
 * One recipient's pre-send warnings (issue 28 §2; lambdas/core/preSendCheck.ts), each as the check words
 * it: a form-only label links to its form, a label taking private links only is offered the private
 * listen page (`onUseListenPage`, when Compose can switch to it).
 */
export function PreSendWarningList({ warnings, onUseListenPage }: { warnings: readonly PreSendWarning[]; onUseListenPage?: () => void }) {
  if (warnings.length === 0) return null;
  return (
    <SpaceBetween size="xxs">
      {warnings.map((warning) => (
        <div key={warning.kind} data-warning={warning.kind}>
          <SpaceBetween size="xxs" direction="horizontal" alignItems="center">
            <StatusIndicator type={warning.skipByDefault ? 'stopped' : 'warning'}>{warning.message}</StatusIndicator>
            {warning.formUrl && (
              <Link href={warning.formUrl} external externalIconAriaLabel="(opens in a new tab)">
                Open their form
              </Link>
            )}
            {warning.kind === 'private_links_only' && onUseListenPage && (
              <Button variant="inline-link" onClick={onUseListenPage}>
                Use the private listen page
              </Button>
            )}
          </SpaceBetween>
        </div>
      ))}
    </SpaceBetween>
  );
}
