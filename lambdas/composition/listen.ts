/**
 * The listen group's adapters (issue 16): the token items, the listen counters, the track items and
 * the AudioStore's signed GET (S3's, signed without the S3 client, in AWS; the local folder otherwise). The
 * token and campaign reads are kept a while per container (core LINK_FACTS_MS), so the handler only
 * decides: a listener's beacons then read only the track.
 */
import { systemClock } from '../adapters/clock';
import { DynamoListenStore } from '../adapters/dynamodb/listenStore';
import { DynamoTrackingStore } from '../adapters/dynamodb/trackingStore';
import { DynamoTrackStore } from '../adapters/dynamodb/trackStore';
import { ExpiringCache } from '../core/expiringCache';
import { LINK_FACTS_MAX, LINK_FACTS_MS } from '../core/listen';
import type { EmailToken, ListenCampaign, ListenStore } from '../ports';
import type { ListenDeps } from '../http/listen';
import type { ServerConfig } from './config';
import { tableOf } from './table';
import { audioUrlsOf } from './audioUrls';
import { clientLimitOf } from './clientLimit';

/**
 * The deps with their token and campaign reads kept LINK_FACTS_MS once found (nothing found is not
 * kept): both are fixed once the email is sent. The track is still read on every request (a deleted
 * track refuses at once) and the handler judges the expiry by the clock on every request.
 */
export function withKeptLinkFacts(deps: ListenDeps): ListenDeps {
  const { tokens, listen, clock } = deps;
  const keptTokens = new ExpiringCache<EmailToken>(LINK_FACTS_MS, LINK_FACTS_MAX);
  const keptCampaigns = new ExpiringCache<ListenCampaign>(LINK_FACTS_MS, LINK_FACTS_MAX);

  /** `read`'s answer under `key`: the kept one, else read and kept when there is one. */
  async function kept<V>(cache: ExpiringCache<V>, key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const now = clock.now();
    const found = cache.get(key, now);
    if (found !== undefined) return found;
    const value = await read();
    if (value !== undefined) cache.set(key, value, now);
    return value;
  }

  const keptListen: ListenStore = {
    // A campaign's listen fields are the same for all its recipients: kept once per campaign.
    campaign: (token) => kept(keptCampaigns, `${token.user_id}/${token.campaign_id}`, () => listen.campaign(token)),
    currentAnswer: (token) => listen.currentAnswer(token),
    recordPlay: (token, session, now) => listen.recordPlay(token, session, now),
    recordProgress: (token, progress, now) => listen.recordProgress(token, progress, now),
    recordDownload: (token, session, now) => listen.recordDownload(token, session, now),
    answer: (token, answer, now) => listen.answer(token, answer, now),
  };
  return { ...deps, tokens: { getToken: (value) => kept(keptTokens, value, () => tokens.getToken(value)) }, listen: keptListen };
}

export function listenDeps(config: ServerConfig): ListenDeps {
  const { db, name } = tableOf(config);
  return withKeptLinkFacts({
    tokens: new DynamoTrackingStore(db, name),
    listen: new DynamoListenStore(db, name),
    tracks: new DynamoTrackStore(db, name),
    audio: audioUrlsOf(config),
    clock: systemClock,
    clientLimit: clientLimitOf(config),
  });
}
