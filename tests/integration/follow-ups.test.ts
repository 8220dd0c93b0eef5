/**
 * Follow-up steps end to end on DynamoDB Local (issue 27 §1; DESIGN §14): a step is made when its first
 * email is recorded sent, goes its days later at the user's pace, only to recipients who did nothing,
 * first emails of a later campaign go before it, and every stop rule holds at the claim, including a stop
 * event that lands between the sender's read and its claim.
 */
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoListenStore } from '../../lambdas/adapters/dynamodb/listenStore';
import { FOLLOW_UP_DAY_MS } from '../../lambdas/core/followUps';
import { FOLLOW_UP_RECHECK_MS } from '../../lambdas/core/followUpSender';
import { pitchKey } from '../../lambdas/core/sender';
import type { EmailToken, RecipientRecord, SenderStore } from '../../lambdas/ports';
import type { CampaignSendWindow } from '../../schema/api/campaigns';
import type { FollowUps } from '../../schema/api/followUpValues';
import { key } from '../../schema/table';
import { contactFor, fail, INTERVAL_MS, sendingWorld, type SendingWorld } from './sendingFixtures';

const DAY = FOLLOW_UP_DAY_MS;
const oneStep = (after_days = 2, condition: FollowUps['condition'] = 'not_listened'): FollowUps => ({
  steps: [{ after_days, writer: 'own', text: 'Hi [CONTACT_NAME], did [TRACK_NAME] reach you? Here it is again: [TRACK_URL]' }],
  condition,
});

async function campaignWithSteps(world: SendingWorld, n: number, followUps: FollowUps, trackName = 'Midnight Drive', sendWindow?: CampaignSendWindow) {
  const campaign = await world.draft(n, { track_name: trackName, track_url: `https://music.test/${trackName.toLowerCase().replace(/\s+/g, '-')}` });
  const contacts = Array.from({ length: n }, (_, i) => contactFor(world.userId, i + 1));
  await world.queue(campaign, contacts, world.now, { followUps, ...(sendWindow ? { sendWindow } : {}) });
  return { campaign, contacts };
}

/** Ticks until every first email is out (the cursor then waits for the first step). */
async function sendFirstEmails(world: SendingWorld, count: number) {
  while (world.mailer.sent.length < count) {
    if (!(await world.tick())) throw new Error('idle before the first emails went');
  }
}

const setOnRecipient = (world: SendingWorld, campaignId: string, position: number, values: Record<string, unknown>) =>
  world.db.send(
    new UpdateCommand({
      TableName: world.tableName,
      Key: { PK: key.campaignPartition(campaignId), SK: key.recipient(position) },
      UpdateExpression: `SET ${Object.keys(values)
        .map((name, i) => `#n${i} = :v${i}`)
        .join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(Object.keys(values).map((name, i) => [`#n${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(Object.values(values).map((value, i) => [`:v${i}`, value])),
    }),
  );

/** Each recipient's first step outcome, as stored (`follow_up_1`; absent while none). */
const outcomes = async (world: SendingWorld, campaignId: string) =>
  (await world.recipients(campaignId)).map((r) => {
    const outcome = (r as Partial<RecipientRecord>).follow_up_1;
    return outcome === undefined || outcome === null ? null : { ...outcome, reason: 'reason' in outcome ? outcome.reason : undefined };
  });

describe('follow-up steps', () => {
  it('a step goes its days later only to the recipient who did nothing, in the first email’s thread subject; answered and replied ones are stopped with their reason', async () => {
    const world = await sendingWorld();
    const { campaign, contacts } = await campaignWithSteps(world, 3, oneStep(2));
    await sendFirstEmails(world, 3);
    const firstSentAt = world.mailer.sent.map((s) => s.at.getTime());
    const [a, b] = await world.recipients(campaign.id);
    // A answers on the listen page; the artist marks B Replied.
    await new DynamoListenStore(world.db, world.tableName).answer({ ...(await tokenOf(world, a!)) }, { answer: 'interested', note: null }, world.now);
    await setOnRecipient(world, campaign.id, 1, { replied_at: world.now.toISOString() });
    expect(b?.status).toBe('sent');

    await world.runUntilIdle();
    const steps = world.mailer.sent.slice(3);
    expect(steps.map((s) => s.email.to.email)).toEqual([contacts[2]!.email]);
    const step = steps[0]!;
    expect(step.email.subject).toBe(`Re: ${world.mailer.sent[2]!.email.subject}`);
    expect(step.email.text).toContain(`Hi ${contacts[2]!.name}, did Midnight Drive reach you?`);
    // Its day: two follow-up days after C's first email, at the first slot then.
    expect(step.at.getTime()).toBe(firstSentAt[2]! + 2 * DAY);
    // In the first email's thread: Gmail's thread id as recorded, In-Reply-To our first Message-ID.
    const third = (await world.recipients(campaign.id))[2]!;
    expect(third.thread_id).toEqual(expect.any(String));
    expect(step.email.replyTo).toEqual({ threadId: third.thread_id, inReplyTo: world.mailer.sent[2]!.email.messageId });
    // Its own token: its own message id, unsubscribe link and tracked links.
    expect(step.email.messageId).not.toBe(world.mailer.sent[2]!.email.messageId);
    expect(step.email.listUnsubscribeUrl).not.toBe(world.mailer.sent[2]!.email.listUnsubscribeUrl);

    expect(await outcomes(world, campaign.id)).toEqual([
      expect.objectContaining({ state: 'stopped', reason: 'answered' }),
      expect.objectContaining({ state: 'stopped', reason: 'replied' }),
      expect.objectContaining({ state: 'sent', subject: step.email.subject }),
    ]);
    // Nothing is left waiting, the step counted on the campaign and in the user's day and month.
    expect(await followUpItems(world)).toEqual([]);
    expect((await world.campaign(campaign.id))?.follow_ups_sent).toBe(1);
    expect(await world.counters(step.at)).toEqual({ day: 1, month: 4 });
  });

  it('steps go at the user’s pace: 3 steps due at once go one per interval', async () => {
    const world = await sendingWorld();
    await campaignWithSteps(world, 3, oneStep(1));
    await sendFirstEmails(world, 3);
    await world.runUntilIdle();
    const steps = world.mailer.sent.slice(3);
    expect(steps).toHaveLength(3);
    expect(steps.slice(1).map((s, i) => s.at.getTime() - steps[i]!.at.getTime())).toEqual([INTERVAL_MS, INTERVAL_MS]);
  });

  it('first emails go first: a campaign queued when steps are due sends its emails before any step', async () => {
    const world = await sendingWorld();
    await campaignWithSteps(world, 2, oneStep(1));
    await sendFirstEmails(world, 2);
    // The day the steps fall due, a new campaign of 2 is queued.
    world.advance(DAY);
    const later = await campaignWithSteps(world, 2, { steps: [], condition: 'not_listened' }, 'Second Track');
    await world.runUntilIdle();
    expect(world.mailer.sent.slice(2).map((s) => s.email.to.email)).toEqual([
      later.contacts[0]!.email,
      later.contacts[1]!.email,
      expect.stringMatching(/^rcpt1-/),
      expect.stringMatching(/^rcpt2-/),
    ]);
    expect(world.mailer.sent.slice(4).every((s) => s.email.subject.startsWith('Re: '))).toBe(true);
  });

  it("'Not for us' on the track in another campaign stops this campaign's step; a listen stops it only under 'Only if they did not listen'; a click stops it; an open does not", async () => {
    const world = await sendingWorld();
    const { campaign } = await campaignWithSteps(world, 4, oneStep(1, 'not_answered'));
    await sendFirstEmails(world, 4);
    const recipients = await world.recipients(campaign.id);
    // Recipient 1 said 'Not for us' to the same track through another campaign's email.
    await world.db.send(
      new UpdateCommand({
        TableName: world.tableName,
        Key: { PK: key.user(world.userId), SK: key.pitched(pitchKey(campaign), recipients[0]!.contact.id) },
        UpdateExpression: 'SET passed_at = :at',
        ExpressionAttributeValues: { ':at': world.now.toISOString() },
      }),
    );
    await setOnRecipient(world, campaign.id, 1, { listened_at: world.now.toISOString() });
    await setOnRecipient(world, campaign.id, 2, { clicked_at: world.now.toISOString() });
    await setOnRecipient(world, campaign.id, 3, { opened_at: world.now.toISOString(), open_count: 3 });
    await world.runUntilIdle();
    // Under 'Only if they did not answer', the listener and the opener get the step.
    expect(world.mailer.sent.slice(4).map((s) => s.email.to.email)).toEqual([recipients[1]!.recipient_email, recipients[3]!.recipient_email]);
    expect((await outcomes(world, campaign.id)).map((o) => o?.reason ?? o?.state)).toEqual(['not_for_us', 'sent', 'clicked', 'sent']);
  });

  it('an unsubscribe and a listen (the default condition) stop the step', async () => {
    const world = await sendingWorld();
    const { campaign, contacts } = await campaignWithSteps(world, 2, oneStep(1));
    await sendFirstEmails(world, 2);
    await world.unsubscribes.record(world.userId, {
      contact_name: contacts[0]!.name,
      contact_email: contacts[0]!.email,
      unsubscribed_at: world.now.toISOString(),
      unsubscribe_reason: null,
      unsubscribe_reason_details: null,
      campaign_id: campaign.id,
      track_name: 'Midnight Drive',
    });
    await setOnRecipient(world, campaign.id, 1, { listened_at: world.now.toISOString() });
    await world.runUntilIdle();
    expect(world.mailer.sent).toHaveLength(2);
    expect((await outcomes(world, campaign.id)).map((o) => o?.reason)).toEqual(['unsubscribed', 'listened']);
  });

  it('a stop event that lands between the read and the claim stops the step: it is never sent', async () => {
    const world = await sendingWorld();
    const { campaign } = await campaignWithSteps(world, 1, oneStep(1));
    await sendFirstEmails(world, 1);
    let injected = 0;
    const store = world.senderStore;
    const racing: SenderStore = Object.assign(Object.create(store) as SenderStore, {
      async readFollowUp(userId: string, now: Date) {
        const read = await store.readFollowUp(userId, now);
        if (read?.recipient && injected === 0 && Date.parse(read.item.due_at) <= now.getTime()) {
          injected++;
          // The recipient answers after the sender read the step and before its claim.
          await setOnRecipient(world, campaign.id, 0, { answered_at: now.toISOString(), answer: 'interested' });
        }
        return read;
      },
    });
    world.withDeps({ store: racing });
    await world.runUntilIdle();
    expect(injected).toBe(1);
    expect(world.mailer.sent).toHaveLength(1);
    expect(await outcomes(world, campaign.id)).toEqual([expect.objectContaining({ state: 'stopped', reason: 'answered' })]);
  });

  it('a step goes at most once: the same tick delivered twice, and a crash after the mailbox took it (unknown, never sent again)', async () => {
    const world = await sendingWorld();
    const { campaign } = await campaignWithSteps(world, 2, oneStep(1));
    await sendFirstEmails(world, 2);
    // The first step: its tick delivered twice in one batch.
    while (world.mailer.sent.length < 3) {
      const cursor = await world.cursor();
      if (Date.parse(cursor!.due_at!) > world.now.getTime()) world.now = new Date(cursor!.due_at!);
      const tick = await world.dueTick();
      await world.deliver(tick!, tick!);
    }
    // The second step: the mailbox takes it and the process dies before the record.
    const mailer = world.mailer;
    let crashes = 0;
    world.withDeps({
      mailer: {
        async send(email, credentials) {
          await mailer.send(email, credentials);
          crashes++;
          throw new Error('the Lambda timed out after the send');
        },
      },
    });
    await world.tick();
    expect(crashes).toBe(1);
    world.withDeps({});
    world.advance(10 * 60_000);
    await world.runUntilIdle();
    expect(world.mailer.sent).toHaveLength(4);
    expect(world.mailer.sent.slice(2).map((s) => s.email.to.email)).toEqual([world.mailer.sent[0]!.email.to.email, world.mailer.sent[1]!.email.to.email]);
    expect((await outcomes(world, campaign.id)).map((o) => o?.state)).toEqual(['sent', 'unknown']);
  });

  it("the campaign's send window holds for its steps: a step due on a Saturday goes at Monday's opening", async () => {
    // Friday 2026-11-27 10:00 UTC; recipients without a zone are read in the artist's (UTC here).
    const world = await sendingWorld({ start: new Date('2026-11-27T10:00:00.000Z'), profile: { time_zone: 'UTC' } });
    await campaignWithSteps(world, 1, oneStep(1), 'Weekday Track', { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 });
    await sendFirstEmails(world, 1);
    await world.runUntilIdle();
    expect(world.mailer.sent.map((s) => s.at.toISOString())).toEqual(['2026-11-27T10:00:00.000Z', '2026-11-30T09:00:00.000Z']);
  });

  it('a throttled step is tried again after its back-off; a refused one fails with the reason; neither stays waiting', async () => {
    const world = await sendingWorld();
    const { campaign } = await campaignWithSteps(world, 2, oneStep(1));
    await sendFirstEmails(world, 2);
    // The first step is throttled once, then goes; the second is refused for good.
    world.mailer.script.push(fail('transient'), () => undefined, fail('rejected', 'Recipient address rejected'));
    await world.runUntilIdle();
    const steps = world.mailer.calls.slice(2);
    expect(steps.map((s) => s.email.to.email)).toEqual([
      world.mailer.sent[0]!.email.to.email,
      world.mailer.sent[0]!.email.to.email,
      world.mailer.sent[1]!.email.to.email,
    ]);
    // The retry waits its back-off (1 minute), not the next day.
    expect(steps[1]!.at.getTime() - steps[0]!.at.getTime()).toBe(60_000);
    expect(await outcomes(world, campaign.id)).toEqual([
      expect.objectContaining({ state: 'sent' }),
      expect.objectContaining({ state: 'failed', detail: 'Recipient address rejected' }),
    ]);
    expect(await followUpItems(world)).toEqual([]);
    expect((await world.counters(steps[2]!.at)).day).toBe(1);
  });

  it('a paused campaign holds its steps; resumed, they go', async () => {
    const world = await sendingWorld();
    const { campaign } = await campaignWithSteps(world, 1, oneStep(1));
    await sendFirstEmails(world, 1);
    await world.db.send(
      new UpdateCommand({
        TableName: world.tableName,
        Key: { PK: key.user(world.userId), SK: key.campaign(campaign.id) },
        UpdateExpression: 'SET sending_status = :paused',
        ExpressionAttributeValues: { ':paused': 'paused' },
      }),
    );
    world.advance(DAY);
    await world.tick();
    await world.tick();
    expect(world.mailer.sent).toHaveLength(1);
    const [held] = await followUpItems(world);
    expect(Date.parse(String(held?.due_at))).toBeGreaterThan(world.now.getTime());
    await world.db.send(
      new UpdateCommand({
        TableName: world.tableName,
        Key: { PK: key.user(world.userId), SK: key.campaign(campaign.id) },
        UpdateExpression: 'SET sending_status = :null',
        ExpressionAttributeValues: { ':null': null },
      }),
    );
    await world.runUntilIdle();
    expect(world.mailer.sent).toHaveLength(2);
  });

  it('a lost mailbox holds the steps (neither sent nor stopped); connected again, they go', async () => {
    const world = await sendingWorld();
    const { campaign } = await campaignWithSteps(world, 1, oneStep(1));
    await sendFirstEmails(world, 1);
    const mailboxKey = { PK: key.user(world.userId), SK: key.mailbox() };
    const mailbox = await world.item(mailboxKey.PK, mailboxKey.SK);
    await world.db.send(new DeleteCommand({ TableName: world.tableName, Key: mailboxKey }));
    world.advance(DAY);
    // Each tick moves the clock to the cursor's next look: three hours without a mailbox.
    for (let i = 0; i < 3; i++) await world.tick();
    expect(world.now.getTime()).toBeGreaterThanOrEqual(Date.parse(campaign.created_at) + DAY + 2 * FOLLOW_UP_RECHECK_MS);
    expect(world.mailer.sent).toHaveLength(1);
    expect(await followUpItems(world)).toMatchObject([{ campaign_id: campaign.id, step: 1, status: 'pending' }]);
    expect(await outcomes(world, campaign.id)).toEqual([null]);

    await world.db.send(new PutCommand({ TableName: world.tableName, Item: mailbox }));
    await world.runUntilIdle();
    expect(world.mailer.sent).toHaveLength(2);
    expect(world.mailer.sent[1]!.email.subject).toMatch(/^Re: /);
    expect(await followUpItems(world)).toEqual([]);
  });
});

async function tokenOf(world: SendingWorld, recipient: RecipientRecord): Promise<EmailToken> {
  return (await world.item(key.tokenPartition(recipient.token!), key.tokenSort())) as unknown as EmailToken;
}

async function followUpItems(world: SendingWorld) {
  const { Items } = await world.db.send(
    new QueryCommand({
      TableName: world.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': key.user(world.userId), ':prefix': key.followUpPrefix() },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}
