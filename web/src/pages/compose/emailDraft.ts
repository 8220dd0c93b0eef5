/** The email being written or edited in AI mode: what the preview card's inputs hold. */
export interface EmailDraft {
  subject: string;
  body: string;
}

/** What the preview note says about who gets which email (see Campaign.personalised_by_writer). */
export const personalisedNote = {
  writer: 'Each recipient gets an email the AI writer writes for them; [CONTACT_NAME] and [LABEL_NAME] show where their name and label go.',
  same: 'Everyone gets this email with their own details filled in.',
} as const;
