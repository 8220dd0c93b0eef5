import type { Contact } from '../../../../../schema/api/contacts';
import type { SendCheck } from '../../../../../schema/api/sending';
import { campaignPreSendInput, leftOutByCheck, preSendWarnings, type PreSendCampaign, type PreSendWarning } from '../../../../../lambdas/core/preSendCheck';
import { isUnsubscribed } from '../useRecipients';

/**
 * The send dialog's pre-send check (issue 28 §2; DESIGN §16), pure: each selected recipient's warnings,
 * who is left out (a skipping warning the artist did not override, or a recipient the artist left out),
 * and how many of them the send would otherwise have emailed.
 */

/** A selected recipient the check has something to say about. */
export interface WarnedRecipient {
  contact: Contact;
  warnings: PreSendWarning[];
}

/** The recipients with warnings, in selection order; a pass on the track comes from the server's check. */
export function warnedRecipients(
  campaign: PreSendCampaign,
  contacts: readonly Contact[],
  check: Pick<SendCheck, 'passed'>,
  timeZone: string,
): WarnedRecipient[] {
  const passed = new Map(check.passed.map((pass) => [pass.contact_id, pass.passed_at]));
  return contacts.flatMap((contact) => {
    const warnings = preSendWarnings(campaignPreSendInput(campaign, { policy: contact.demo_policy, passedAt: passed.get(contact.id) ?? null }, timeZone));
    return warnings.length > 0 ? [{ contact, warnings }] : [];
  });
}

/** The artist's choices per recipient: "Send anyway" on a skipping warning, "Leave out" on one that only warns. */
export interface PreSendChoices {
  sendAnyway: ReadonlySet<string>;
  excluded: ReadonlySet<string>;
}

/** Whether the recipient is left out of the send. */
export const isLeftOut = (recipient: WarnedRecipient, choices: PreSendChoices): boolean =>
  choices.excluded.has(recipient.contact.id) || leftOutByCheck(recipient.warnings, choices.sendAnyway.has(recipient.contact.id));

/**
 * What the check does to the emails to send. `leftOut`: the left-out recipients the send would otherwise
 * have emailed (not unsubscribed, and not already pitched the track unless the artist sends again: the
 * server counts those apart). `sentAgain`: those who passed on the track whom the artist insists on; they
 * were pitched it, so only the insisting sends it to them (again), each alone.
 */
export function preSendEffect(
  warned: readonly WarnedRecipient[],
  choices: PreSendChoices,
  facts: { unsubscribed: ReadonlySet<string>; alreadySent: ReadonlySet<string>; sendAgain: boolean },
): { leftOut: number; sentAgain: number } {
  const reachable = (recipient: WarnedRecipient) => !isUnsubscribed(facts.unsubscribed, recipient.contact);
  const counted = (recipient: WarnedRecipient) => facts.sendAgain || !facts.alreadySent.has(recipient.contact.id);
  return {
    leftOut: warned.filter((recipient) => isLeftOut(recipient, choices) && reachable(recipient) && counted(recipient)).length,
    sentAgain: warned.filter(
      (recipient) =>
        !isLeftOut(recipient, choices) && recipient.warnings.some((warning) => warning.kind === 'passed') && reachable(recipient) && !counted(recipient),
    ).length,
  };
}
