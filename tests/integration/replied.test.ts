/**
 * The artist's "Replied" mark (issue 27 §1: gmail.send cannot read replies) end to end: an email sent by
 * the real sender worker on DynamoDB Local, then PUT / DELETE /api/campaigns/{id}/emails/{position}/replied
 * through the local server → JWT authorizer → lambdas/http/sending.ts, and the contact's card list
 * GET /api/contacts/{id}/emails. An email not sent is a 409; another user's campaign, email or contact is
 * the same 404 as a missing one, and changes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sendingApiMessages } from '../../lambdas/http/sending';
import type { Campaign } from '../../schema/api/campaigns';
import { contactMessages, type Contact } from '../../schema/api/contacts';
import { campaignEmailListSchema, campaignEmailSchema, campaignMessages, contactEmailListSchema } from '../../schema/api/sending';
import { key } from '../../schema/table';
import { call, createUser, uniqueEmail, type ApiOptions, type TestUser } from './helpers';
import { sendingWorld, type SendingWorld } from './sendingFixtures';

const api = (user: TestUser, path: string, options: Omit<ApiOptions, 'token'> = {}) => call(path, { ...options, token: user.idToken });

async function addContact(user: TestUser, name: string): Promise<Contact> {
  const response = await api(user, '/api/contacts', { method: 'POST', body: { name, email: uniqueEmail('replied') } });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json as unknown as Contact;
}

describe('the "Replied" mark', () => {
  let owner: TestUser;
  let other: TestUser;
  let world: SendingWorld;
  let campaign: Campaign;
  let sentTo: Contact;
  let waiting: Contact;
  const replied = (position: number | string, id = campaign.id) => `/api/campaigns/${id}/emails/${position}/replied`;

  beforeAll(async () => {
    [owner, other] = await Promise.all([createUser(), createUser()]);
    // The profile first (the world's sender writes its mailbox and profile over it).
    expect((await api(owner, '/api/profile')).status).toBe(200);
    world = await sendingWorld({ userId: owner.sub, start: new Date() });
    [sentTo, waiting] = await Promise.all([addContact(owner, 'Mara Velvet'), addContact(owner, 'Theo Lark')]);
    campaign = await world.draft(2, { track_name: 'Harbour Lights' });
    await world.queue(campaign, [sentTo, waiting]);
    // One tick: the first email goes out through the real sender; the second waits for the next slot.
    await world.tick();
    expect((await world.recipients(campaign.id)).map((r) => r.status)).toEqual(['sent', 'pending']);
  });

  it('the send recorded its provider id and thread, and filed the email under the contact', async () => {
    const [first] = await world.recipients(campaign.id);
    expect(first).toMatchObject({ provider_message_id: 'provider-1', thread_id: 'provider-1', message_id: world.mailer.sent[0]!.email.messageId });
    const index = await world.item(key.user(owner.sub), key.sentTo(sentTo.id, first!.sent_at!, campaign.id, 0));
    expect(index).toMatchObject({ campaign_id: campaign.id, position: 0, sent_at: first!.sent_at });
  });

  it('marks a sent email replied, keeps the first time when marked again, and both lists show it', async () => {
    const before = Date.now();
    const marked = await api(owner, replied(0), { method: 'PUT' });
    expect(marked.status, JSON.stringify(marked.json)).toBe(200);
    const email = campaignEmailSchema.parse(marked.json);
    expect(email).toMatchObject({ position: 0, status: 'sent', recipient_email: sentTo.email });
    expect(Date.parse(email.replied_at!)).toBeGreaterThanOrEqual(before - 1000);

    const again = campaignEmailSchema.parse((await api(owner, replied(0), { method: 'PUT' })).json);
    expect(again.replied_at).toBe(email.replied_at);

    const list = campaignEmailListSchema.parse((await api(owner, `/api/campaigns/${campaign.id}/emails`)).json);
    expect(list.emails.map((e) => e.replied_at)).toEqual([email.replied_at, null]);

    const card = await api(owner, `/api/contacts/${sentTo.id}/emails`);
    expect(card.status).toBe(200);
    expect(contactEmailListSchema.parse(card.json).emails).toEqual([
      {
        campaign_id: campaign.id,
        track_name: 'Harbour Lights',
        position: 0,
        subject: world.mailer.sent[0]!.email.subject,
        sent_at: (await world.recipients(campaign.id))[0]!.sent_at,
        replied_at: email.replied_at,
        answer: null,
      },
    ]);
    // A contact nothing was sent to has an empty list.
    expect(contactEmailListSchema.parse((await api(owner, `/api/contacts/${waiting.id}/emails`)).json).emails).toEqual([]);
  });

  it('an email not sent (yet) is a 409 with a clear message, and stays unmarked', async () => {
    for (const method of ['PUT', 'DELETE'] as const) {
      const response = await api(owner, replied(1), { method });
      expect(response.status).toBe(409);
      expect(response.json).toEqual({ message: sendingApiMessages.repliedNotSent });
    }
    expect((await world.recipients(campaign.id))[1]!.replied_at).toBeNull();
  });

  it('another user’s campaign, email or contact is the same 404 as a missing one, and nothing changes', async () => {
    for (const method of ['PUT', 'DELETE'] as const) {
      const response = await api(other, replied(0), { method });
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ message: campaignMessages.notFound });
    }
    const missingCampaign = await api(owner, replied(0, '01KAKZ3R0000000000000000ZZ'), { method: 'PUT' });
    expect(missingCampaign.status).toBe(404);
    expect(missingCampaign.json).toEqual({ message: campaignMessages.notFound });
    for (const position of [7, 'x', '-1']) {
      const response = await api(owner, replied(position), { method: 'PUT' });
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ message: sendingApiMessages.emailNotFound });
    }
    const theirCard = await api(other, `/api/contacts/${sentTo.id}/emails`);
    expect(theirCard.status).toBe(404);
    expect(theirCard.json).toEqual({ message: contactMessages.notFound });
    expect((await api(owner, '/api/contacts/not-an-id/emails')).status).toBe(404);
    // Still marked by its owner only.
    expect((await world.recipients(campaign.id))[0]!.replied_at).toEqual(expect.any(String));
    expect((await call(replied(0), { method: 'PUT' })).status).toBe(401);
  });

  it('unmarking clears the mark everywhere', async () => {
    const response = await api(owner, replied(0), { method: 'DELETE' });
    expect(response.status).toBe(200);
    expect(campaignEmailSchema.parse(response.json).replied_at).toBeNull();
    expect((await world.recipients(campaign.id))[0]!.replied_at).toBeNull();
    expect(contactEmailListSchema.parse((await api(owner, `/api/contacts/${sentTo.id}/emails`)).json).emails[0]!.replied_at).toBeNull();
    // Unmarking an unmarked email is the same answer.
    expect((await api(owner, replied(0), { method: 'DELETE' })).status).toBe(200);
  });
});
