/**
 * The campaign page's follow-ups (issue 27 §1) end to end: emails sent and steps settled by the real
 * sender worker on DynamoDB Local, read through the local server → JWT authorizer →
 * lambdas/http/sending.ts: GET /api/campaigns/{id}/emails answers each email's steps (sent, stopped and
 * why, waiting and until when) and each step counted over the emails; the "Replied" mark and the one
 * email's view answer the steps too. Another user's campaign id is the same 404 as a missing one.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { FOLLOW_UP_DAY_MS } from '../../lambdas/core/followUps';
import type { FollowUps } from '../../schema/api/followUpValues';
import { campaignEmailListSchema, campaignEmailSchema, campaignEmailContentSchema, campaignMessages, type CampaignEmailList } from '../../schema/api/sending';
import type { Campaign } from '../../schema/api/campaigns';
import { key } from '../../schema/table';
import { call, createUser, type TestUser } from './helpers';
import { contactFor, fail, sendingWorld, type SendingWorld } from './sendingFixtures';

const STEPS: FollowUps = {
  steps: [
    { after_days: 2, writer: 'own', text: 'Hi [CONTACT_NAME], did [TRACK_NAME] reach you? [TRACK_URL]' },
    { after_days: 5, writer: 'own', text: 'Last note about [TRACK_NAME]: [TRACK_URL]' },
  ],
  condition: 'not_listened',
};

const dueAfter = (sentAt: string | null, days: number) => new Date(Date.parse(sentAt!) + days * FOLLOW_UP_DAY_MS).toISOString();

describe("a campaign's follow-up steps on its emails", () => {
  let owner: TestUser;
  let other: TestUser;
  let world: SendingWorld;
  let campaign: Campaign;
  const list = async (user: TestUser = owner, id = campaign.id) => {
    const response = await call(`/api/campaigns/${id}/emails`, { token: user.idToken });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    return campaignEmailListSchema.strict().parse(response.json);
  };
  const setOnRecipient = (position: number, values: Record<string, unknown>) =>
    world.db.send(
      new UpdateCommand({
        TableName: world.tableName,
        Key: { PK: key.campaignPartition(campaign.id), SK: key.recipient(position) },
        UpdateExpression: `SET ${Object.keys(values)
          .map((_, i) => `#n${i} = :v${i}`)
          .join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(Object.keys(values).map((name, i) => [`#n${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(Object.values(values).map((value, i) => [`:v${i}`, value])),
      }),
    );

  beforeAll(async () => {
    [owner, other] = await Promise.all([createUser(), createUser()]);
    // The profile first (the world's sender writes its mailbox and profile over it).
    expect((await call('/api/profile', { token: owner.idToken })).status).toBe(200);
    world = await sendingWorld({ userId: owner.sub });
    campaign = await world.draft(5, { track_name: 'Harbour Lights' });
    await world.queue(
      campaign,
      Array.from({ length: 5 }, (_, i) => contactFor(owner.sub, i + 1)),
      world.now,
      { followUps: STEPS },
    );
  });

  it('before the first emails go, every step waits with no due time; the first sent email’s steps are due their days after it', async () => {
    await world.tick();
    const { emails, follow_ups } = await list();
    expect(emails.map((e) => e.status)).toEqual(['sent', 'pending', 'pending', 'pending', 'pending']);
    const sentAt = emails[0]!.sent_at;
    expect(emails[0]!.follow_ups).toEqual([
      { step: 1, state: 'waiting', due_at: dueAfter(sentAt, 2) },
      { step: 2, state: 'waiting', due_at: dueAfter(sentAt, 5) },
    ]);
    for (const email of emails.slice(1)) {
      expect(email.follow_ups).toEqual([
        { step: 1, state: 'waiting', due_at: null },
        { step: 2, state: 'waiting', due_at: null },
      ]);
    }
    expect(follow_ups).toEqual([
      { step: 1, after_days: 2, sent: 0, stopped: 0, stopped_by_reason: [], waiting: 5, next_due_at: dueAfter(sentAt, 2) },
      { step: 2, after_days: 5, sent: 0, stopped: 0, stopped_by_reason: [], waiting: 5, next_due_at: dueAfter(sentAt, 5) },
    ]);
  });

  it('after the first step: sent, stopped by reason (answered, marked Replied, a first email refused, a step refused), the second step still waiting', async () => {
    // Recipient 3's first email is refused; recipient 5's first email goes and its step is refused.
    world.mailer.scriptFor.set(2, [fail('rejected', 'Recipient address rejected')]);
    world.mailer.scriptFor.set(4, [() => undefined, fail('rejected', 'Recipient address rejected')]);
    while ((await world.recipients(campaign.id)).some((r) => r.status === 'pending')) {
      if (!(await world.tick())) throw new Error('idle before the first emails went');
    }
    // Recipient 1 answers on the listen page; the artist marks recipient 4 Replied (the route answers its steps).
    await setOnRecipient(0, { answered_at: world.now.toISOString(), answer: 'interested' });
    const marked = await call(`/api/campaigns/${campaign.id}/emails/3/replied`, { method: 'PUT', token: owner.idToken });
    expect(marked.status, JSON.stringify(marked.json)).toBe(200);
    // Marked Replied stops its steps at once: the answer says so (the sender's claim is the guarantee).
    expect(campaignEmailSchema.strict().parse(marked.json).follow_ups).toEqual([
      { step: 1, state: 'stopped', reason: 'replied' },
      { step: 2, state: 'stopped', reason: 'replied' },
    ]);

    // Tick until every first step is settled (the second steps are days later).
    const settled = async () => (await world.recipients(campaign.id)).filter((r) => r.status === 'sent' && r.follow_up_1).length;
    while ((await settled()) < 4) {
      if (!(await world.tick())) throw new Error('idle before the first steps were settled');
    }

    const { emails, follow_ups } = await list();
    const sentAt = emails.map((e) => e.sent_at);
    expect(emails.map((e) => e.status)).toEqual(['sent', 'sent', 'failed', 'sent', 'sent']);
    const stepSent = (await world.recipients(campaign.id))[1]!.follow_up_1;
    expect(stepSent).toMatchObject({ state: 'sent' });
    expect(emails.map((e) => e.follow_ups)).toEqual([
      [
        // What the recipient did stops the step still waiting at once.
        { step: 1, state: 'stopped', reason: 'answered' },
        { step: 2, state: 'stopped', reason: 'answered' },
      ],
      [
        { step: 1, state: 'sent', sent_at: stepSent!.at },
        { step: 2, state: 'waiting', due_at: dueAfter(sentAt[1]!, 5) },
      ],
      [
        { step: 1, state: 'stopped', reason: 'failed' },
        { step: 2, state: 'stopped', reason: 'failed' },
      ],
      [
        { step: 1, state: 'stopped', reason: 'replied' },
        { step: 2, state: 'stopped', reason: 'replied' },
      ],
      [
        { step: 1, state: 'stopped', reason: 'failed' },
        { step: 2, state: 'waiting', due_at: dueAfter(sentAt[4]!, 5) },
      ],
    ]);
    expect(follow_ups).toEqual([
      {
        step: 1,
        after_days: 2,
        sent: 1,
        stopped: 4,
        // In the order of followUpStopReasons.
        stopped_by_reason: [
          { reason: 'failed', count: 2 },
          { reason: 'answered', count: 1 },
          { reason: 'replied', count: 1 },
        ],
        waiting: 0,
        next_due_at: null,
      },
      {
        step: 2,
        after_days: 5,
        sent: 0,
        stopped: 3,
        stopped_by_reason: [
          { reason: 'failed', count: 1 },
          { reason: 'answered', count: 1 },
          { reason: 'replied', count: 1 },
        ],
        waiting: 2,
        next_due_at: dueAfter(sentAt[1]!, 5),
      },
    ]);

    // The one email's view answers the same steps.
    const one = await call(`/api/campaigns/${campaign.id}/emails/1`, { token: owner.idToken });
    expect(campaignEmailContentSchema.strict().parse(one.json).follow_ups).toEqual(emails[1]!.follow_ups);
    // The list reads what became of a step, never the step's email (its outcome holds it when sent).
    const listed = await world.sendQueue.listRecipients(campaign.id);
    const stopped = (await world.recipients(campaign.id))[0]!.follow_up_1;
    expect(listed[1]!.follow_up_1).toEqual({ state: 'sent', at: stepSent!.at });
    expect(listed[0]!.follow_up_1).toEqual({ state: 'stopped', at: stopped!.at, reason: 'answered' });
    expect(listed[0]!.follow_up_2).toBeNull();
  });

  it('another user’s campaign id is the same 404 as a missing one, and answers nothing of the owner’s', async () => {
    for (const id of [campaign.id, '01KAKZ3R0000000000000000ZZ']) {
      const response = await call(`/api/campaigns/${id}/emails`, { token: other.idToken });
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ message: campaignMessages.notFound });
    }
    const one = await call(`/api/campaigns/${campaign.id}/emails/1`, { token: other.idToken });
    expect(one.status).toBe(404);
    // The owner's answer is unchanged by the other user's reads.
    const owners: CampaignEmailList = await list();
    expect(owners.follow_ups.map((s) => s.sent)).toEqual([1, 0]);
  });
});
