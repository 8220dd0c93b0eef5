import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Modal from '@cloudscape-design/components/modal';
import RadioGroup from '@cloudscape-design/components/radio-group';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useEffect, useMemo, useState } from 'react';
import { sendingMessages, type SendCheck, type SendModeName } from '../../../../../schema/api/sending';
import { sendCheck } from '../../../api/sending';
import { useAuth } from '../../../auth/AuthContext';
import { useKeyedState } from '../../../lib/useKeyedState';
import { MailboxRequired } from './MailboxRequired';
import { capacityScenario, defaultMode, localTime, modeAllowed, requestedCount, sendFailure, type CapacityScenario } from './sendPlan';

export interface SendChoice {
  mode: SendModeName;
  sendAgain: boolean;
  /** Emails the send is expected to queue (the success dialog reads the server's count). */
  requested: number;
}

type CheckState = { kind: 'loading' } | { kind: 'failed'; mailbox: boolean } | { kind: 'ready'; check: SendCheck };

const LOADING: CheckState = { kind: 'loading' };

export const modeLabels: Record<SendModeName, string> = {
  immediate: 'Send now',
  partial: "Send today's remainder now, the rest tomorrow",
  scheduled: 'Schedule for tomorrow',
};

/**
 * When the emails that cannot go out today will: after tomorrow's reset of the mailbox counter, or, when
 * the plan's monthly limit is what stops them, when the plan's month starts again (the sender waits).
 */
export function whenTheRestGoes(status: SendCheck['status']): string {
  const { month, today } = status;
  if (month.remaining === null || month.remaining >= today.remaining) return 'the rest after the counter resets';
  // month.month is 'YYYY-MM'; Date.UTC's month is 0-based, so the 1-based month number is the next month.
  const firstOfNext = new Date(Date.UTC(Number(month.month.slice(0, 4)), Number(month.month.slice(5, 7)), 1, 12));
  return `the rest when your plan's monthly limit resets on ${firstOfNext.toLocaleDateString(undefined, { day: 'numeric', month: 'long', timeZone: 'UTC' })}`;
}

function scenarioAlert(scenario: CapacityScenario, availableNow: number, requested: number, rest: string) {
  if (scenario === 'exhausted') {
    return (
      <Alert type="warning" i18nStrings={{ warningIconAriaLabel: 'Warning' }} header="No sending capacity left today">
        Schedule the campaign: it starts after the counter resets.
      </Alert>
    );
  }
  if (scenario === 'partial') {
    return (
      <Alert type="info" i18nStrings={{ infoIconAriaLabel: 'Info' }} header="Partial capacity today">
        {`${availableNow} of ${requested} emails can go out today; ${rest}.`}
      </Alert>
    );
  }
  return (
    <Alert type="success" i18nStrings={{ successIconAriaLabel: 'Success' }} header="Enough capacity today">
      {`All ${requested} emails can go out today.`}
    </Alert>
  );
}

/** Why nothing can be sent, when the selection leaves no one to send to. */
function nothingToSend(check: SendCheck, sendAgain: boolean) {
  if (check.unsubscribed >= check.selected) {
    return (
      <Alert type="error" i18nStrings={{ errorIconAriaLabel: 'Error' }}>
        {sendingMessages.allUnsubscribed}
      </Alert>
    );
  }
  const text =
    check.already_sent > 0 && !sendAgain
      ? "Everyone selected who can be emailed already received this track. Tick 'Send again anyway' to pitch them again."
      : 'None of the selected contacts can be emailed.';
  return (
    <Alert type="info" i18nStrings={{ infoIconAriaLabel: 'Info' }}>
      {text}
    </Alert>
  );
}

/**
 * The capacity dialog (spec §2 Compose dialogs, §4 capacity scenario and send modes): asks the server
 * who of the selection would be skipped and what capacity is left, shows today's mailbox and this
 * month's plan remainder with the reset time, and offers the modes the scenario allows.
 */
export function CapacityModal({
  campaignId,
  contactIds,
  onCancel,
  onConfirm,
}: {
  campaignId: string;
  contactIds: readonly string[];
  onCancel: () => void;
  onConfirm: (choice: SendChoice) => void;
}) {
  const { api } = useAuth();
  const [attempt, setAttempt] = useState(0);
  // Checking until the check for these contacts and this attempt answers.
  const request = useMemo(() => ({ campaignId, contactIds, attempt }), [campaignId, contactIds, attempt]);
  const [state, setStateFor] = useKeyedState(request, LOADING);
  const [sendAgain, setSendAgain] = useState(false);
  /** The mode the artist picked; null: the scenario's default. */
  const [picked, setPicked] = useState<SendModeName | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    sendCheck(api, request.campaignId, request.contactIds, { signal: controller.signal }).then(
      (check) => {
        if (!controller.signal.aborted) setStateFor(request, { kind: 'ready', check });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setStateFor(request, { kind: 'failed', mailbox: sendFailure(error).kind === 'mailbox' });
      },
    );
    return () => controller.abort();
  }, [api, request, setStateFor]);

  const check = state.kind === 'ready' ? state.check : null;
  const requested = check ? requestedCount(check, sendAgain) : 0;
  const scenario = check ? capacityScenario(check.status.available_now, requested) : 'exhausted';
  const mode: SendModeName = picked && modeAllowed(picked, scenario) ? picked : defaultMode(scenario);
  const canSend = check !== null && check.status.mailbox.connected && requested > 0;

  let content;
  if (state.kind === 'loading') {
    content = <StatusIndicator type="loading">Checking sending capacity...</StatusIndicator>;
  } else if (state.kind === 'failed') {
    content = state.mailbox ? (
      <MailboxRequired />
    ) : (
      <Alert type="error" i18nStrings={{ errorIconAriaLabel: 'Error' }} action={<Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>}>
        {sendingMessages.capacityCheckFailed}
      </Alert>
    );
  } else {
    const { status } = state.check;
    const month = status.month.limit === null ? 'Unlimited' : `${status.month.remaining ?? 0} of ${status.month.limit} left`;
    content = (
      <SpaceBetween size="l">
        {!status.mailbox.connected && <MailboxRequired />}
        <KeyValuePairs
          columns={2}
          items={[
            { label: 'Selected contacts', value: String(state.check.selected) },
            { label: 'Unsubscribed (skipped)', value: String(state.check.unsubscribed) },
            { label: 'Already received this track', value: String(state.check.already_sent) },
            ...(state.check.unknown > 0 ? [{ label: 'No longer in your contacts (skipped)', value: String(state.check.unknown) }] : []),
            { label: 'Emails to send', value: <span data-testid="requested-count">{requested}</span> },
            { label: "Today's mailbox capacity", value: `${status.today.remaining} of ${status.mailbox.daily_limit} left` },
            { label: "This month's plan capacity", value: month },
            { label: 'Counter resets', value: `Midnight Pacific Time (${localTime(status.today.resets_at)} your time)` },
          ]}
        />
        {state.check.already_sent > 0 && (
          <Checkbox
            checked={sendAgain}
            onChange={({ detail }) => setSendAgain(detail.checked)}
            description={`${state.check.already_sent} selected contact${state.check.already_sent === 1 ? '' : 's'} already received this track from you and will be skipped unless you tick this.`}
          >
            Send again anyway
          </Checkbox>
        )}
        {requested === 0 ? (
          nothingToSend(state.check, sendAgain)
        ) : (
          <>
            {status.mailbox.connected && scenarioAlert(scenario, status.available_now, requested, whenTheRestGoes(status))}
            <FormField label="When to send">
              <RadioGroup
                value={mode}
                onChange={({ detail }) => setPicked(detail.value as SendModeName)}
                items={(['immediate', 'partial', 'scheduled'] as const).map((value) => ({
                  value,
                  label: modeLabels[value],
                  disabled: !modeAllowed(value, scenario),
                  description:
                    value === 'immediate' && scenario !== 'sufficient'
                      ? sendingMessages.insufficientCapacity
                      : value === 'partial'
                        ? `${Math.min(status.available_now, requested)} today, ${whenTheRestGoes(status)}.`
                        : value === 'scheduled'
                          ? 'Every email goes out after the counter resets.'
                          : 'Every email goes out today, one a minute.',
                }))}
              />
            </FormField>
          </>
        )}
      </SpaceBetween>
    );
  }

  return (
    <Modal
      visible
      onDismiss={onCancel}
      header="Send Campaign"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onCancel}>
              Cancel
            </Button>
            {canSend && (
              <Button variant="primary" onClick={() => onConfirm({ mode, sendAgain, requested })}>
                {mode === 'scheduled' ? 'Schedule Campaign' : 'Start Sending'}
              </Button>
            )}
          </SpaceBetween>
        </Box>
      }
    >
      {content}
    </Modal>
  );
}
