import { describe, expect, it } from 'vitest';
import { clockTime, ListeningMeter } from '../../web/src/pages/listen/listening';
import { answerText, listenedText, listeningLine } from '../../web/src/lib/listenFacts';
import { campaignEmail } from './campaigns-fake-server';

describe('ListeningMeter: what the listen page reports as heard', () => {
  it('counts the time actually played, not seeks, and reports each milestone once when first crossed', () => {
    const meter = new ListeningMeter(20);
    for (let t = 0; t <= 5; t += 0.25) meter.tick(t);
    expect(meter.heardSeconds).toBeCloseTo(5);
    expect(meter.newMilestone()).toBe(25);
    expect(meter.newMilestone()).toBeUndefined();
    // A seek to 18 s is no listening.
    meter.tick(18);
    expect(meter.heardSeconds).toBeCloseTo(5);
    expect(meter.newMilestone()).toBeUndefined();
    meter.pause();
    for (let t = 18; t <= 20; t += 0.25) meter.tick(t);
    expect(meter.heardSeconds).toBeCloseTo(7);
    expect(meter.newMilestone()).toBeUndefined();
    meter.pause();
    for (let t = 7; t <= 11; t += 0.5) meter.tick(t);
    expect(meter.percent).toBeCloseTo(55);
    expect(meter.newMilestone()).toBe(50);
  });

  it('never counts more than the track lasts, and an ending after nearly all of it is the whole track', () => {
    const meter = new ListeningMeter(10);
    for (let t = 0; t <= 9.8; t += 0.2) meter.tick(t);
    meter.finish();
    expect(meter.percent).toBe(100);
    expect(meter.newMilestone()).toBe(100);
    for (let t = 0; t <= 30; t += 0.5) meter.tick(t);
    expect(meter.heardSeconds).toBe(10);
  });

  it('shows times as minutes and seconds', () => {
    expect([0, 9.9, 75, 3600].map(clockTime)).toEqual(['0:00', '0:09', '1:15', '60:00']);
  });
});

describe('the artist’s words for what a recipient did on the listen page (campaign, dashboard, Analytics)', () => {
  it('reads Listened n %, Played n× and Downloaded, and nothing before a play', () => {
    const email = campaignEmail(0, { play_count: 2, listen_max_percent: 75, download_count: 1 });
    expect(listeningLine(email)).toBe('Listened 75 % · Played 2× · Downloaded');
    expect(listenedText(email)).toBe('Listened 75 %');
    expect(listeningLine(campaignEmail(1))).toBeNull();
    expect(listenedText(campaignEmail(1))).toBeNull();
    // A download without a play.
    expect(listeningLine(campaignEmail(2, { download_count: 1 }))).toBe('Downloaded');
  });

  it('calls a play that stopped before 25 % (what the Listened counter counts from) a play, not Listened 0 %', () => {
    const early = campaignEmail(0, { play_count: 1, listen_max_percent: 0 });
    expect(listeningLine(early)).toBe('Played 1×');
    expect(listenedText(early)).toBe('Played');
    const atMilestone = campaignEmail(1, { play_count: 1, listen_max_percent: 25 });
    expect(listeningLine(atMilestone)).toBe('Listened 25 % · Played 1×');
    expect(listenedText(atMilestone)).toBe('Listened 25 %');
  });

  it('a milestone whose play beacon was lost still reads Listened, as the campaign’s Listened counts it', () => {
    const lostPlay = campaignEmail(0, { play_count: 0, listen_max_percent: 50 });
    expect(listenedText(lostPlay)).toBe('Listened 50 %');
    expect(listeningLine(lostPlay)).toBe('Listened 50 %');
  });

  it('names the answer as the page’s button does', () => {
    expect(answerText('send_wavs')).toBe('Answer: Send me the WAVs');
    expect(answerText(null)).toBeNull();
  });
});
