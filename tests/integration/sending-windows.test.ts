/**
 * The recipient's working hours (issue 27 §2; DESIGN §13, §14) on the real dispatcher, FIFO and sender
 * over DynamoDB Local with a fake clock (tests/fakes/pipeline.ts): every email goes inside its recipient's
 * window (their zone, else the artist's), and the user still sends exactly one email per interval while
 * any recipient still to be sent is inside their window, and none while nobody is.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { recipientDetails } from '../../lambdas/core/sender';
import { isWithinWindow, type SendWindow } from '../../lambdas/core/workingHours';
import type { CampaignSendWindow } from '../../schema/api/campaigns';
import { FakeClock, invariantViolations, PipelineWorld } from '../fakes/pipeline';
import { dynamodb, stack } from './helpers';

const EXEC = randomUUID().slice(0, 8);
/** Monday 23 November 2026, 00:00 UTC: 09:00 in Tokyo. */
const START = Date.parse('2026-11-23T00:00:00.000Z');
const INTERVAL = 10 * 60_000;
const HOUR = 3_600_000;

/** Every day, 9:00 to 18:00: Tokyo 00–09 UTC, Berlin 08–17 UTC, New York 14–23 UTC; overlapping in part, none at 23–24 UTC. */
const WINDOW: CampaignSendWindow = { days: [1, 2, 3, 4, 5, 6, 7], start_hour: 9, end_hour: 18 };
const coreWindow: SendWindow = { days: [1, 2, 3, 4, 5, 6, 7], startHour: 9, endHour: 18 };
/** The artist's zone: recipients without a zone of their own are read in it. */
const ARTIST_ZONE = 'America/New_York';

describe("the recipient's working hours on the pipeline", () => {
  it('recipients in Tokyo, Berlin and (no zone: the artist’s) New York: every email inside its window, and one per interval while anyone is inside theirs', async () => {
    const w = new PipelineWorld({
      db: dynamodb().doc,
      tableName: stack().tableName,
      clock: new FakeClock(new Date(START)),
      tag: `windows-${EXEC}`,
      cursorsFrom: 'own',
      intervalMs: INTERVAL,
    });
    const user = await w.addUser({ dailyLimit: 2000, tier: 'label', timeZone: ARTIST_ZONE });
    // 60 in each zone, interleaved: more than one window's slots (54) for a zone, so some wait a day.
    const zones = ['Asia/Tokyo', 'Europe/Berlin', null] as const;
    const contacts = w
      .contacts(
        user.userId,
        Array.from({ length: 180 }, (_, i) => i),
      )
      .map((contact, i) => ({ ...contact, time_zone: zones[i % 3] ?? null }));
    const zoneOf = (position: number) => contacts[position]?.time_zone ?? ARTIST_ZONE;
    const { campaign } = await w.campaignFor(user.userId, contacts, { sendWindow: WINDOW });

    const slots = (2 * 24 * HOUR) / INTERVAL;
    const sentBySlot: number[] = [];
    const shouldSend: boolean[] = [];
    const sent = new Set<number>();
    for (let slot = 0; slot < slots; slot++) {
      const slotAt = START + slot * INTERVAL;
      // Anyone still to be sent inside their window when the slot's tick is taken up (2 s after the dispatcher's run)?
      const takenAt = new Date(slotAt + 2_000);
      shouldSend.push(contacts.some((_, position) => !sent.has(position) && isWithinWindow(takenAt, coreWindow, zoneOf(position))));
      w.clock.set(slotAt);
      await w.dispatch();
      w.clock.set(takenAt.getTime());
      const before = w.mail.calls.length;
      await w.deliver();
      const calls = w.mail.calls.slice(before);
      for (const call of calls) sent.add(call.position);
      sentBySlot.push(calls.length);
    }

    const calls = w.mail.calls;
    // Everyone got exactly one email, each inside its recipient's window on their own clock.
    expect(calls.filter((call) => call.delivered)).toHaveLength(180);
    expect(new Set(calls.map((call) => call.position)).size).toBe(180);
    const outside = calls.filter((call) => !isWithinWindow(call.at, coreWindow, zoneOf(call.position)));
    expect(outside.map((call) => `${call.position} ${zoneOf(call.position)} ${call.at.toISOString()}`)).toEqual([]);
    // The pace held across zones: one email in every slot where someone was inside their window, none elsewhere.
    expect(sentBySlot.every((count) => count <= 1)).toBe(true);
    const mismatches = sentBySlot.flatMap((count, slot) =>
      (count === 1) === shouldSend[slot] ? [] : [`${new Date(START + slot * INTERVAL).toISOString()}: ${count}`],
    );
    expect(mismatches).toEqual([]);
    // The windows did bind: slots went unused at night everywhere, and some of each zone waited for the next day.
    expect(shouldSend.filter((open) => !open).length).toBeGreaterThan(0);
    const secondDay = calls.filter((call) => call.at.getTime() >= START + 24 * HOUR).map((call) => zoneOf(call.position));
    expect(new Set(secondDay)).toEqual(new Set(['Asia/Tokyo', 'Europe/Berlin', ARTIST_ZONE]));

    const snapshot = await w.snapshot();
    expect(invariantViolations(w, snapshot, { expectCompleted: true })).toEqual([]);
    expect(snapshot.users[0]!.campaigns[0]!.recipients.every((r) => r.status === 'sent' && r.detail === null)).toBe(true);
    expect(campaign.id).toBe(snapshot.users[0]!.campaigns[0]!.campaign.id);
  }, 240_000);

  it('a recipient waiting for its window shows the reason and the time it may go on its queue item', async () => {
    const w = new PipelineWorld({
      db: dynamodb().doc,
      tableName: stack().tableName,
      clock: new FakeClock(new Date(START)),
      tag: `windows-queue-${EXEC}`,
      cursorsFrom: 'own',
      intervalMs: INTERVAL,
    });
    const user = await w.addUser({ tier: 'label', timeZone: ARTIST_ZONE });
    const [tokyo, berlin] = w.contacts(user.userId, ['tokyo', 'berlin']);
    const { campaign } = await w.campaignFor(
      user.userId,
      [
        { ...berlin!, time_zone: 'Europe/Berlin' },
        { ...tokyo!, time_zone: 'Asia/Tokyo' },
      ],
      {
        sendWindow: WINDOW,
      },
    );
    await w.dispatch();
    await w.deliver();
    // Berlin (01:00 there) waits; the slot went to Tokyo (09:00 there).
    expect(w.mail.calls.map((call) => call.position)).toEqual([1]);
    const berlinItem = (await w.sendQueue.listRecipients(campaign.id)).find((r) => r.position === 0);
    expect(berlinItem).toMatchObject({ status: 'pending', detail: recipientDetails.outsideWindow, retry_at: '2026-11-23T08:00:00.000Z' });
  });
});
