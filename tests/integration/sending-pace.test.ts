/**
 * The promise paced sending makes (DESIGN §13), on the real dispatcher, FIFO and sender over DynamoDB
 * Local with a fake clock (tests/fakes/pipeline.ts): one email per user per interval, counted in slots,
 * whatever the delay between the dispatcher's run and the sender's claim; and one failing recipient
 * never holds the others.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, recipientDetails } from '../../lambdas/core/sender';
import { FakeClock, invariantViolations, MINUTE_MS, mulberry32, PipelineWorld, type MailerAttempt, type MailerFault } from '../fakes/pipeline';
import { dynamodb, stack } from './helpers';

const EXEC = randomUUID().slice(0, 8);
const START = Date.parse('2026-11-21T18:00:00.000Z');
let worlds = 0;

function world(mailerPlan?: (attempt: MailerAttempt) => MailerFault | undefined) {
  return new PipelineWorld({
    db: dynamodb().doc,
    tableName: stack().tableName,
    clock: new FakeClock(new Date(START)),
    tag: `pace-${EXEC}-${++worlds}`,
    cursorsFrom: 'own',
    ...(mailerPlan ? { mailerPlan } : {}),
  });
}

async function oneCampaign(w: PipelineWorld, recipients: number) {
  const user = await w.addUser({ dailyLimit: 2000, tier: 'label' });
  await w.campaignFor(
    user.userId,
    w.contacts(
      user.userId,
      Array.from({ length: recipients }, (_, i) => i),
    ),
  );
  return user;
}

describe('the pace is the promise', () => {
  it('sends exactly 120 emails in 2 simulated hours at one a minute, each claim 0.2–5 s after its dispatcher run (seeded)', async () => {
    const w = world();
    await oneCampaign(w, 150);
    const delay = mulberry32(23);
    const delays: number[] = [];
    for (let slot = 0; slot < 120; slot++) {
      w.clock.set(START + slot * MINUTE_MS);
      await w.dispatch();
      delays.push(delay.between(200, 5_000));
      w.clock.set(START + slot * MINUTE_MS + delays.at(-1)!);
      await w.deliver();
    }
    // The delays were real: spread over the range, none zero.
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...delays)).toBeGreaterThan(4_000);
    const sent = w.mail.calls.filter((call) => call.delivered);
    expect(sent).toHaveLength(120);
    // One in each slot: email n went out in minute n, at its claim's delay.
    expect(sent.map((call) => call.at.getTime() - START)).toEqual(delays.map((ms, slot) => slot * MINUTE_MS + ms));
    expect(sent.map((call) => call.position)).toEqual(Array.from({ length: 120 }, (_, i) => i));
  });
});

describe('one failing recipient never holds the others', () => {
  it('one recipient of 20 always answers 503: the other 19 take every other slot, it fails after its attempts, nothing goes twice', async () => {
    const FAILING = 7;
    const w = world((attempt) => (attempt.position === FAILING ? 'transient' : undefined));
    await oneCampaign(w, 20);
    const { settled } = await w.drive({}, 300);
    expect(settled).toBe(true);
    const snapshot = await w.snapshot();
    expect(invariantViolations(w, snapshot, { expectCompleted: true })).toEqual([]);

    const calls = w.mail.calls;
    // The faults were injected: every try of the failing recipient answered 503.
    const failingTries = calls.filter((call) => call.position === FAILING);
    expect(failingTries.map((call) => call.fault)).toEqual(Array.from({ length: MAX_ATTEMPTS }, () => 'transient'));
    // Its tries at minutes 7, 8, 10, 14 and 22 (back-off 1, 2, 4, 8); the 19 others in every slot between.
    const minute = (at: Date) => (at.getTime() - START) / MINUTE_MS;
    expect(failingTries.map((call) => minute(call.at))).toEqual([7, 8, 10, 14, 22]);
    expect(calls.map((call) => minute(call.at))).toEqual(Array.from({ length: 24 }, (_, i) => i));
    const delivered = calls.filter((call) => call.delivered).map((call) => call.position);
    expect([...delivered].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i).filter((p) => p !== FAILING));

    const recipients = snapshot.users[0]!.campaigns[0]!.recipients;
    expect(recipients[FAILING]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, detail: recipientDetails.gaveUp('Backend error (503)') });
    expect(recipients.filter((r) => r.status === 'sent')).toHaveLength(19);
  });
});
