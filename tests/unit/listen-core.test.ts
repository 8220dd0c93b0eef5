import { describe, expect, it } from 'vitest';
import {
  isListenExpired,
  listenDaysOf,
  listenExpiresAt,
  listenPageUrl,
  listenRateWindows,
  milestoneOf,
  progressChange,
  recipientListen,
  secondsToAdd,
} from '../../lambdas/core/listen';
import { toRecipient } from '../../lambdas/adapters/dynamodb/sending/items';
import { emailListen } from '../../lambdas/core/insights';
import { isEmailToken, newEmailToken } from '../../lambdas/core/emailToken';

describe('the listen link', () => {
  it('is the app’s /l/<token> with the email’s 256-bit token', () => {
    const token = newEmailToken();
    expect(isEmailToken(token)).toBe(true);
    expect(listenPageUrl('https://app.example/', token)).toBe(`https://app.example/l/${token}`);
  });

  it('expires the campaign’s days after the email was sent; 90 when the days are missing or out of 1–365', () => {
    const sent = '2026-01-01T00:00:00.000Z';
    expect(listenExpiresAt(sent, 1).toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(listenExpiresAt(sent, 365).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    for (const days of [undefined, 0, 366, 2.5, '30']) expect(listenDaysOf(days)).toBe(90);
    expect(isListenExpired(sent, 1, new Date('2026-01-01T23:59:59.999Z'))).toBe(false);
    expect(isListenExpired(sent, 1, new Date('2026-01-02T00:00:00.000Z'))).toBe(true);
  });
});

describe('milestones', () => {
  it('bucket a percent into 0/25/50/75/100', () => {
    expect([0, 24.9, 25, 49, 50, 74.99, 75, 99.9, 100, Number.NaN].map(milestoneOf)).toEqual([0, 0, 25, 25, 50, 50, 75, 75, 100, 0]);
  });
});

describe('seconds of a play session', () => {
  it('add what was heard beyond what is counted, never past the track’s length, never negative', () => {
    expect(secondsToAdd(5, 0, 8)).toBe(5);
    expect(secondsToAdd(7.9, 5, 8)).toBe(2);
    expect(secondsToAdd(500, 5, 8)).toBe(3);
    expect(secondsToAdd(3, 5, 8)).toBe(0);
    expect(secondsToAdd(Number.POSITIVE_INFINITY, 0, 8)).toBe(0);
    expect(secondsToAdd(10, 0, 7.2)).toBe(8);
  });
});

describe('a progress beacon’s change, judged on the RCPT as read', () => {
  const beacon = (milestone: number, seconds: number, session = 'session-a') => ({ session, milestone, seconds, durationSeconds: 8 });
  const playing = { listen_session: 'session-a', listen_session_seconds: 3 };

  it('is the listen at the first reach of 25 %, with the session’s new seconds', () => {
    expect(progressChange(playing, beacon(50, 5))).toEqual({ milestone: { value: 50, first: true }, seconds: { session: 'session-a', counted: 3, add: 2 } });
    expect(progressChange(playing, beacon(0, 5))).toEqual({ seconds: { session: 'session-a', counted: 3, add: 2 } });
  });

  it('once listened, only a higher milestone; nothing for a repeated or late beacon', () => {
    const listened = { ...playing, listened_at: '2026-01-01T00:00:00.000Z', listen_max_percent: 50 };
    expect(progressChange(listened, beacon(75, 3))).toEqual({ milestone: { value: 75, first: false } });
    expect(progressChange(listened, beacon(50, 3))).toEqual({});
    expect(progressChange(listened, beacon(25, 2))).toEqual({});
  });

  it('when no first listen can be counted (its campaign gone), only a milestone above the stored one', () => {
    const reached = { listen_max_percent: 50 };
    const noFirst = { firstListenCounts: false };
    expect(progressChange(reached, beacon(50, 0), noFirst)).toEqual({});
    expect(progressChange(reached, beacon(75, 0), noFirst)).toEqual({ milestone: { value: 75, first: false } });
    expect(progressChange({}, beacon(25, 0), noFirst)).toEqual({ milestone: { value: 25, first: false } });
  });

  it('adds seconds only to the current session, never past the track’s length', () => {
    expect(progressChange(playing, beacon(0, 5, 'session-b'))).toEqual({});
    expect(progressChange({}, beacon(0, 5))).toEqual({});
    expect(progressChange(playing, beacon(0, 500))).toEqual({ seconds: { session: 'session-a', counted: 3, add: 5 } });
    expect(progressChange({ ...playing, listen_session_seconds: 8 }, beacon(0, 500))).toEqual({});
  });
});

describe('a recipient’s rate windows', () => {
  it('are the UTC hour (plays) and minute (events) a time falls in, each named once and ending at its boundary', () => {
    const windows = listenRateWindows(new Date('2026-11-26T11:59:59.999Z'));
    expect(windows.plays).toEqual({ name: 'H2026-11-26T11', endsAt: new Date('2026-11-26T12:00:00.000Z') });
    expect(windows.events).toEqual({ name: 'M2026-11-26T11:59', endsAt: new Date('2026-11-26T12:00:00.000Z') });
    const next = listenRateWindows(new Date('2026-11-26T12:00:00.000Z'));
    expect(next.plays.name).toBe('H2026-11-26T12');
    expect(next.events.name).toBe('M2026-11-26T12:00');
    expect(listenRateWindows(new Date('2026-11-26T11:00:00.000Z')).plays.name).toBe(windows.plays.name);
  });
});

describe('a sent email’s listen attributes as read: one reader for the campaign’s sent emails and the insights', () => {
  const nothingYet = {
    first_listened_at: null,
    last_listened_at: null,
    listened_at: null,
    listen_max_percent: 0,
    listen_seconds: 0,
    play_count: 0,
    download_count: 0,
    answer: null,
    answer_note: null,
    answered_at: null,
    first_answered_at: null,
  };
  const written = {
    first_listened_at: '2026-11-20T10:00:00.000Z',
    last_listened_at: '2026-11-21T10:00:00.000Z',
    listened_at: '2026-11-20T10:01:00.000Z',
    listen_max_percent: 75,
    listen_seconds: 140,
    play_count: 2,
    download_count: 1,
    answer: 'send_wavs',
    answer_note: 'Lossless please',
    answered_at: '2026-11-21T10:05:00.000Z',
    first_answered_at: '2026-11-20T10:05:00.000Z',
  };
  const broken = {
    listen_max_percent: 250,
    listen_seconds: -4,
    play_count: 1.5,
    download_count: '3',
    answer: 'maybe',
    answer_note: 'orphan note',
    answered_at: 7,
  };

  it('reads an email nobody listened to as nothing yet, keeps what the page wrote, and never shows a broken value', () => {
    expect(recipientListen({})).toEqual(nothingYet);
    expect(recipientListen(written)).toEqual(written);
    expect(recipientListen(broken)).toEqual({ ...nothingYet, listen_max_percent: 100 });
  });

  it('the sending routes’ recipient (an RCPT item as read) and the insights read the same values', () => {
    const item = { PK: 'CAMPAIGN#C1', SK: 'RCPT#0000', campaign_id: 'C1', user_id: 'u', position: 0, recipient_email: 'mara@velvet.example', status: 'sent' };
    for (const listen of [{}, written, broken]) {
      const recipient = toRecipient({ ...item, ...listen });
      expect(recipient).toMatchObject({ ...recipientListen(listen), status: 'sent', open_count: 0 });
      expect(emailListen(listen)).toEqual({
        listen_max_percent: recipient.listen_max_percent,
        play_count: recipient.play_count,
        download_count: recipient.download_count,
        answer: recipient.answer,
        answer_note: recipient.answer_note,
      });
    }
    expect(toRecipient({ ...item, ...broken })).toMatchObject({ listen_max_percent: 100, play_count: 0, answer: null, answer_note: null, answered_at: null });
  });
});
