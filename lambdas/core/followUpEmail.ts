/**
 * A follow-up step's email (issue 27 §1): in the first email's thread ('Re: <its subject>'), written by the
 * AI writer from the first email (a short nudge, kept once per recipient and step like any written
 * email), or the artist's own text with the placeholders filled, the footer and the recipient's links as
 * in any email. Pure over the ports it is given.
 */
import type { Campaign, RenderedEmail } from '../../schema/api/campaigns';
import type { FollowUpStep } from '../../schema/api/followUpValues';
import type { RecipientRecord } from '../ports';
import { recipientEmail, type RecipientEmailInput } from './compose';
import { replySubject } from './thread';

export interface FollowUpEmailInput extends Omit<RecipientEmailInput, 'campaign' | 'contact' | 'followUp'> {
  campaign: Campaign;
  /** The first email as sent: its subject and text lead the step. */
  recipient: Pick<RecipientRecord, 'contact' | 'subject' | 'text'>;
  step: FollowUpStep;
  stepNumber: number;
}

export async function followUpEmail(input: FollowUpEmailInput): Promise<RenderedEmail> {
  const { campaign, recipient, step, stepNumber, ...rest } = input;
  const subject = replySubject(recipient.subject ?? campaign.email_subject);
  if (step.writer === 'own' && step.text !== null) {
    const own = { ...campaign, email_subject: subject, email_body: step.text, personalised_by_writer: false };
    return recipientEmail({ ...rest, campaign: own, contact: recipient.contact });
  }
  const written = await recipientEmail({
    ...rest,
    // Written for this recipient whoever the preview was for: the step is never the first email again.
    campaign: { ...campaign, personalised_by_writer: true, preview_contact_id: null },
    contact: recipient.contact,
    followUp: { step: stepNumber, first_subject: recipient.subject ?? campaign.email_subject, first_body: recipient.text ?? '' },
  });
  return { ...written, subject };
}
