/**
 * The listen group's kept link facts (lambdas/composition/listen.ts withKeptLinkFacts): a container
 * reads a token and its campaign once a minute (core LINK_FACTS_MS), not on every beacon; what was not
 * found is read again; everything else (the track, the events) goes to the stores every time.
 */
import { describe, expect, it } from 'vitest';
import { withKeptLinkFacts } from '../../lambdas/composition/listen';
import { LINK_FACTS_MS } from '../../lambdas/core/listen';
import type { ListenDeps } from '../../lambdas/http/listen';
import type { EmailToken, ListenCampaign, ListenStore } from '../../lambdas/ports';
import { noClientLimit } from '../fakes/clientLimit';

const token = (value: string, campaignId = 'C1'): EmailToken => ({
  token: value,
  user_id: 'user-1',
  campaign_id: campaignId,
  position: 0,
  contact_id: 'contact-1',
  contact_email: 'mara@velvet.example',
  contact_name: 'Mara',
  artist_name: 'NOVA',
  track_name: 'Night Drive',
  links: [],
  created_at: '2026-11-01T00:00:00.000Z',
});
const campaign: ListenCampaign = { track_name: 'Night Drive', track_id: 'T1', allow_download: false, listen_days: 90, description: 'A groove.' };

/** Stores that count their reads; `known` are the tokens that exist. */
function countingDeps(known: EmailToken[]) {
  const reads = { tokens: 0, campaigns: 0, answers: 0 };
  let now = new Date('2026-11-26T12:00:00.000Z');
  const unused = () => Promise.reject(new Error('not used here'));
  const listen: ListenStore = {
    campaign: () => {
      reads.campaigns += 1;
      return Promise.resolve(campaign);
    },
    currentAnswer: () => {
      reads.answers += 1;
      return Promise.resolve({ answer: null, answer_note: null });
    },
    recordPlay: unused,
    recordProgress: unused,
    recordDownload: unused,
    answer: unused,
  };
  const deps: ListenDeps = {
    tokens: {
      getToken: (value) => {
        reads.tokens += 1;
        return Promise.resolve(known.find((t) => t.token === value));
      },
    },
    listen,
    tracks: { get: () => Promise.resolve(undefined) },
    audio: { signedGetUrl: () => Promise.resolve('https://audio.example/a') },
    clientLimit: noClientLimit,
    clock: { now: () => now },
  };
  return { reads, deps, moveBy: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

describe('withKeptLinkFacts', () => {
  it('reads a token and its campaign once while kept, and again once LINK_FACTS_MS have passed', async () => {
    const { reads, deps, moveBy } = countingDeps([token('a')]);
    const kept = withKeptLinkFacts(deps);
    for (let i = 0; i < 3; i += 1) {
      const found = await kept.tokens.getToken('a');
      expect(found?.token).toBe('a');
      expect(await kept.listen.campaign(found!)).toEqual(campaign);
      moveBy(LINK_FACTS_MS / 4);
    }
    expect(reads).toMatchObject({ tokens: 1, campaigns: 1 });
    moveBy(LINK_FACTS_MS);
    await kept.listen.campaign((await kept.tokens.getToken('a'))!);
    expect(reads).toMatchObject({ tokens: 2, campaigns: 2 });
  });

  it('keeps one campaign for all its recipients, and keeps nothing for a token that is not there', async () => {
    const { reads, deps } = countingDeps([token('a'), token('b')]);
    const kept = withKeptLinkFacts(deps);
    await kept.listen.campaign(token('a'));
    await kept.listen.campaign(token('b'));
    await kept.listen.campaign(token('c', 'C2'));
    expect(reads.campaigns).toBe(2);
    expect(await kept.tokens.getToken('missing')).toBeUndefined();
    expect(await kept.tokens.getToken('missing')).toBeUndefined();
    expect(reads.tokens).toBe(2);
  });

  it('passes every other read to the store each time (the answer is the recipient’s latest)', async () => {
    const { reads, deps } = countingDeps([token('a')]);
    const kept = withKeptLinkFacts(deps);
    await kept.listen.currentAnswer(token('a'));
    await kept.listen.currentAnswer(token('a'));
    expect(reads.answers).toBe(2);
    expect(kept.tracks).toBe(deps.tracks);
  });
});
