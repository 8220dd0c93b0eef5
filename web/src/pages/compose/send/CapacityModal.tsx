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
import {
  bindingLimit,
  capacityWords,
  durationAtPace,
  durationWords,
  firstSendAt,
  refusalWords,
  resetDayWords,
  SEND_INTERVAL_MS,
  type BindingLimit,
} from '../../../../../schema/sendingLimits';
import { sendCheck } from '../../../api/sending';
import { useAuth } from '../../../auth/AuthContext';
import { useFollow } from '../../../components/useFollow';
import { useKeyedState } from '../../../lib/useKeyedState';
import { useNow } from '../../../lib/useNow';
import { MailboxRequired } from './MailboxRequired';
import { SendWindowField, windowProblem } from './SendWindowField';
import { artistClock, windowedQueueEstimate, zonePlace } from '../../../lib/queueEta';
import { followUpForecast } from '../../../../../lambdas/core/followUps';
import { planSendTimes } from '../../../../../lambdas/core/sendingWindow';
import { NO_FOLLOW_UPS, type FollowUps } from '../../../../../schema/api/followUpValues';
import { plural } from '../../../../../schema/plural';
import { browserTimeZone } from '../../../lib/timeZones';
import type { CampaignSendWindow } from '../../../../../schema/api/campaigns';
import { capacityScenario, defaultMode, localTime, modeAllowed, requestedCount, sendFailure, type CapacityScenario } from './sendPlan';
import type { Contact } from '../../../../../schema/api/contacts';
import type { PreSendCampaign } from '../../../../../lambdas/core/preSendCheck';
import { isLeftOut, preSendEffect, warnedRecipients, type PreSendChoices } from './preSendPlan';
import { PreSendReview } from './PreSendReview';

export interface SendChoice {
  mode: SendModeName;
  sendAgain: boolean;
  /** When recipients may get the email (issue 27 §2): null, any time; else their working hours. */
  sendWindow: CampaignSendWindow | null;
  /** Emails the send is expected to queue (the success dialog reads the server's count). */
  requested: number;
  /** The server's pace (its send interval), for the success dialog's estimate. */
  intervalMs: number;
  /** Recipients the pre-send check leaves out (issue 28 §2): a skipping warning not overridden, or left out by the artist. */
  leftOutIds: ReadonlySet<string>;
  /** Recipients the artist ticked 'Send anyway' for: the send request names them, so the server sends to them too. */
  sendAnywayIds: ReadonlySet<string>;
}

/** What the pre-send check reads (issue 28 §2): the draft, the selected contacts and the unsubscribed addresses. */
export interface PreSendContext {
  campaign: PreSendCampaign;
  contacts: readonly Contact[];
  /** Lower-cased unsubscribed addresses: never sent, so never counted as left out. */
  unsubscribed: ReadonlySet<string>;
  /** Switches the email to the private listen page (a label taking private links only). */
  onUseListenPage?: () => void;
}

const noOne: ReadonlySet<string> = new Set();
const toggled = (set: ReadonlySet<string>, id: string, on: boolean) => {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
};

type CheckState = { kind: 'loading' } | { kind: 'failed'; mailbox: boolean } | { kind: 'ready'; check: SendCheck };

const LOADING: CheckState = { kind: 'loading' };

/** How often the dialog's clock (the start of its time estimates) moves on while it is open. */
const CLOCK_MS = 30_000;

/**
 * The send modes' labels (spec §4 immediate, partial, scheduled): the remainder and the rest are named
 * for the limit that binds, the mailbox's day (the rest tomorrow) or the plan's month (the rest when the
 * plan's limit resets).
 */
export function modeLabel(mode: SendModeName, scenario: CapacityScenario, binding: BindingLimit): string {
  if (mode === 'immediate') return 'Send now';
  if (mode === 'partial')
    return binding === 'monthly' ? "Send this month's remainder now, the rest next month" : "Send today's remainder now, the rest tomorrow";
  // Nothing left this month: scheduled for tomorrow, it would only wait there for the plan's reset.
  return binding === 'monthly' && scenario === 'exhausted' ? 'Queue for when your plan allows' : 'Schedule for tomorrow';
}

/** What each mode does, at the pace and with the reset of the limit that binds; never 'today' for what the pace cannot do. */
function modeDescription(mode: SendModeName, scenario: CapacityScenario, binding: BindingLimit, status: SendCheck['status'], requested: number): string {
  const intervalMs = status.send_interval_seconds * 1000;
  const planReset = resetDayWords(status.month.resets_at);
  if (mode === 'immediate') {
    if (scenario !== 'sufficient') return refusalWords(capacityOfStatus(status), requested, status.month.resets_at);
    return `One every ${intervalWords(intervalMs)} from now: ${durationWords(durationAtPace(requested, intervalMs))} in all.`;
  }
  if (mode === 'partial') {
    const fits = Math.min(status.available_now, requested);
    return binding === 'monthly'
      ? `${fits} from now, the rest when your plan's limit resets on ${planReset} (or as soon as you upgrade).`
      : `${fits} from now, the rest after your Gmail mailbox's daily limit resets at midnight Pacific Time.`;
  }
  if (binding !== 'monthly') return "Every email goes out after your Gmail mailbox's daily limit resets at midnight Pacific Time.";
  return status.available_now > 0
    ? `${Math.min(status.available_now, requested)} after midnight Pacific Time, the rest when your plan's limit resets on ${planReset} (or as soon as you upgrade).`
    : `Nothing goes out before your plan's limit resets on ${planReset}, or until you upgrade.`;
}

/** The send interval in words: 'minute' (spec §9), '5 s' for a faster demo pace. */
const intervalWords = (intervalMs: number) =>
  intervalMs === 60_000 ? 'minute' : intervalMs % 60_000 === 0 ? `${intervalMs / 60_000} min` : `${Math.round(intervalMs / 1000)} s`;

/** The capacity as the status tells it (the server computed it; the module's words read it). */
const capacityOfStatus = (status: SendCheck['status']) => ({
  todayRemaining: status.today.remaining,
  monthRemaining: status.month.remaining,
  availableNow: status.available_now,
});

/** The capacity notice: the limit that binds and its reset, or the time at the pace (schema/sendingLimits.ts capacityWords). */
function CapacityNotice({ check, requested, now }: { check: SendCheck; requested: number; now: number }) {
  const follow = useFollow();
  const { status } = check;
  const intervalMs = status.send_interval_seconds * 1000;
  const words = capacityWords({
    requested,
    capacity: capacityOfStatus(status),
    dailyLimit: status.mailbox.daily_limit,
    dayResetsAt: status.today.resets_at,
    monthResetsAt: status.month.resets_at,
    intervalMs,
    start: firstSendAt({ now: new Date(now), nextSendAt: status.next_send_at, queuedAhead: check.queued_ahead, intervalMs }),
    formatTime: (at) => localTime(at.toISOString()),
  });
  return (
    <div data-testid="capacity-notice">
      <Alert
        type={words.type}
        header={words.header}
        i18nStrings={{ successIconAriaLabel: 'Success', infoIconAriaLabel: 'Info', warningIconAriaLabel: 'Warning' }}
        action={
          words.upgrade ? (
            <Button href="/dashboard/subscription" onFollow={follow}>
              Upgrade
            </Button>
          ) : undefined
        }
      >
        {words.text}
      </Alert>
    </div>
  );
}

/**
 * The follow-ups the send may bring this month (issue 27 §1): the steps due before the plan's month ends,
 * counted from when the chosen mode should send each first email and the server's follow-up day, within
 * what the month leaves after the first emails (they go first); the rest wait for next month's allowance.
 */
function FollowUpsNotice({
  check,
  followUps,
  requested,
  mode,
  scenario,
  now,
}: {
  check: SendCheck;
  followUps: FollowUps;
  requested: number;
  mode: SendModeName;
  scenario: CapacityScenario;
  now: number;
}) {
  const { status } = check;
  const intervalMs = status.send_interval_seconds * 1000;
  const start = new Date(now);
  const plan = planSendTimes({
    mode,
    capacity: { ...capacityOfStatus(status), scenario },
    count: requested,
    now: start,
    firstFreeSlot: firstSendAt({ now: start, nextSendAt: status.next_send_at, queuedAhead: check.queued_ahead, intervalMs }),
    intervalMs,
  });
  if (plan.outcome !== 'planned') return null;
  const forecast = followUpForecast({
    firstSendTimes: plan.times,
    steps: followUps.steps,
    monthEnd: new Date(status.month.resets_at),
    monthRemaining: status.month.remaining,
    dayMs: check.follow_up_day_seconds * 1000,
  });
  const header = forecast.thisMonth > 0 ? `Up to ${plural(forecast.thisMonth, 'follow-up')} later this month` : 'No follow-ups this month';
  return (
    <div data-testid="follow-ups-notice">
      <Alert type="info" header={header} i18nStrings={{ infoIconAriaLabel: 'Info' }}>
        <SpaceBetween size="xxs">
          <span>Each goes only if its recipient has not responded by then, and never takes a slot a first email is waiting for.</span>
          {forecast.nextMonth > 0 && (
            <span>
              {status.month.limit === null
                ? `${plural(forecast.nextMonth, 'more falls', 'more fall')} due after this month.`
                : `${plural(forecast.nextMonth, 'more waits', 'more wait')} for next month's allowance: your plan's limit resets on ${resetDayWords(status.month.resets_at)}.`}
            </span>
          )}
        </SpaceBetween>
      </Alert>
    </div>
  );
}

/**
 * The estimate with working hours (issue 27 §2; DESIGN §13): when the last email should go, counting
 * each recipient's window, and a line per zone whose window opens later, in the artist's time
 * ('Tokyo recipients start 00:00 your time').
 */
function WorkingHoursNotice({
  window,
  zones,
  artistZone,
  intervalMs,
  start,
}: {
  window: CampaignSendWindow;
  zones: readonly (string | null)[];
  artistZone: string;
  intervalMs: number;
  start: Date;
}) {
  // Recounted when the inputs change, not on every render (the dialog's clock moves every 30 s).
  const startMs = start.getTime();
  const estimate = useMemo(
    () => windowedQueueEstimate({ window, zones, artistZone, intervalMs, now: new Date(startMs) }),
    [zones, window, artistZone, intervalMs, startMs],
  );
  const yourTime = (at: Date) => artistClock(at, start, artistZone);
  const later = estimate.zones.filter((zone) => zone.opensAt.getTime() > start.getTime());
  return (
    <div data-testid="working-hours-notice">
      <Alert type="info" header="Sent in your recipients' working hours" i18nStrings={{ infoIconAriaLabel: 'Info' }}>
        <SpaceBetween size="xxs">
          <span>
            {estimate.finishAt
              ? `Counting their working hours, the last should go out around ${localTime(estimate.finishAt.toISOString())}.`
              : 'No recipient has working hours in this window.'}
          </span>
          {later.map((zone) => (
            <span key={zone.zone}>{`${zonePlace(zone.zone)} recipients start ${yourTime(zone.opensAt)} your time`}</span>
          ))}
        </SpaceBetween>
      </Alert>
    </div>
  );
}

/** Why nothing can be sent, when the selection leaves no one to send to. */
function nothingToSend(check: SendCheck, sendAgain: boolean, leftOut: number) {
  if (leftOut > 0) {
    return (
      <Alert type="info" i18nStrings={{ infoIconAriaLabel: 'Info' }}>
        {"Everyone who could be emailed is left out by the pre-send check. Tick 'Send anyway' for a recipient to send to them."}
      </Alert>
    );
  }
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
  zones = [],
  followUps = NO_FOLLOW_UPS,
  preSend,
  onCancel,
  onConfirm,
}: {
  campaignId: string;
  contactIds: readonly string[];
  /** The recipients' time zones (null: the artist's), for the working-hours estimate. */
  zones?: readonly (string | null)[];
  /** The campaign's follow-up steps (issue 27 §1): with steps, the dialog counts those that may go this month. */
  followUps?: FollowUps;
  /** The pre-send check's inputs (issue 28 §2); without them the dialog checks nothing. */
  preSend?: PreSendContext;
  onCancel: () => void;
  onConfirm: (choice: SendChoice) => void;
}) {
  const { api, profile } = useAuth();
  const artistZone = profile?.time_zone ?? browserTimeZone();
  const [attempt, setAttempt] = useState(0);
  // Checking until the check for these contacts and this attempt answers.
  const request = useMemo(() => ({ campaignId, contactIds, attempt }), [campaignId, contactIds, attempt]);
  const [state, setStateFor] = useKeyedState(request, LOADING);
  const [sendAgain, setSendAgain] = useState(false);
  const [sendWindow, setSendWindow] = useState<CampaignSendWindow | null>(null);
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

  const [choices, setChoices] = useState<PreSendChoices>({ sendAnyway: noOne, excluded: noOne });

  const check = state.kind === 'ready' ? state.check : null;
  const warned = useMemo(() => (check && preSend ? warnedRecipients(preSend.campaign, preSend.contacts, check, artistZone) : []), [check, preSend, artistZone]);
  const { leftOut, sentAgain } = useMemo(
    () => preSendEffect(warned, choices, { unsubscribed: preSend?.unsubscribed ?? noOne, alreadySent: new Set(check?.already_sent_ids), sendAgain }),
    [warned, choices, preSend, check, sendAgain],
  );
  const requested = check ? Math.max(0, requestedCount(check, sendAgain) - leftOut + sentAgain) : 0;
  const scenario = check ? capacityScenario(check.status.available_now, requested) : 'exhausted';
  const mode: SendModeName = picked && modeAllowed(picked, scenario) ? picked : defaultMode(scenario);
  const canSend = check !== null && check.status.mailbox.connected && requested > 0;
  const windowOpens = windowProblem(sendWindow) === null;
  const now = useNow(CLOCK_MS);
  const intervalMs = check ? check.status.send_interval_seconds * 1000 : SEND_INTERVAL_MS;

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
    const binding = bindingLimit(capacityOfStatus(status), requested);
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
            ...(warned.length > 0 ? [{ label: 'Left out by the pre-send check', value: <span data-testid="left-out-count">{leftOut}</span> }] : []),
            { label: 'Emails to send', value: <span data-testid="requested-count">{requested}</span> },
            { label: "Today's mailbox capacity", value: `${status.today.remaining} of ${status.mailbox.daily_limit} left` },
            { label: "This month's plan capacity", value: month },
            { label: 'Mailbox limit resets', value: `Midnight Pacific Time (${localTime(status.today.resets_at)} your time)` },
            ...(status.month.limit === null ? [] : [{ label: 'Plan limit resets', value: `${resetDayWords(status.month.resets_at)} (Pacific Time)` }]),
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
        {warned.length > 0 && (
          <PreSendReview
            warned={warned}
            leftOut={leftOut}
            choices={choices}
            onSendAnyway={(id, on) => setChoices((current) => ({ ...current, sendAnyway: toggled(current.sendAnyway, id, on) }))}
            onExclude={(id, on) => setChoices((current) => ({ ...current, excluded: toggled(current.excluded, id, on) }))}
            onUseListenPage={preSend?.onUseListenPage}
          />
        )}
        {requested === 0 ? (
          nothingToSend(state.check, sendAgain, leftOut)
        ) : (
          <>
            {status.mailbox.connected && <CapacityNotice check={state.check} requested={requested} now={now} />}
            {followUps.steps.length > 0 && (
              <FollowUpsNotice check={state.check} followUps={followUps} requested={requested} mode={mode} scenario={scenario} now={now} />
            )}
            <FormField label="When to send">
              <RadioGroup
                value={mode}
                onChange={({ detail }) => setPicked(detail.value as SendModeName)}
                items={(['immediate', 'partial', 'scheduled'] as const).map((value) => ({
                  value,
                  label: modeLabel(value, scenario, binding),
                  disabled: !modeAllowed(value, scenario),
                  description: modeDescription(value, scenario, binding, status, requested),
                }))}
              />
            </FormField>
            <SendWindowField value={sendWindow} onChange={setSendWindow} />
            {sendWindow !== null && windowOpens && (
              <WorkingHoursNotice
                window={sendWindow}
                zones={zones}
                artistZone={artistZone}
                intervalMs={intervalMs}
                start={firstSendAt({ now: new Date(now), nextSendAt: status.next_send_at, queuedAhead: state.check.queued_ahead, intervalMs })}
              />
            )}
          </>
        )}
      </SpaceBetween>
    );
  }

  return (
    <Modal
      visible
      onDismiss={onCancel}
      closeAriaLabel="Close dialog"
      header="Send Campaign"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onCancel}>
              Cancel
            </Button>
            {canSend && (
              <Button
                variant="primary"
                disabled={!windowOpens}
                onClick={() =>
                  onConfirm({
                    mode,
                    sendAgain,
                    sendWindow,
                    requested,
                    intervalMs,
                    leftOutIds: new Set(warned.filter((recipient) => isLeftOut(recipient, choices)).map((recipient) => recipient.contact.id)),
                    sendAnywayIds: choices.sendAnyway,
                  })
                }
              >
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
