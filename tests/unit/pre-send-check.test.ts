/**
 * The pre-send check (issue 28 §2, lambdas/core/preSendCheck.ts): each warning the recipient's demo
 * policy, the email, the track and a pass on it give, which of them skip the recipient, and none when
 * nothing goes against the policy.
 */
import { describe, expect, it } from 'vitest';
import { buildDemoPolicy } from '../fakes/builders';
import {
  campaignPreSendInput,
  isPublicStreamingUrl,
  leftOutByCheck,
  preSendMessages,
  preSendWarnings,
  type PreSendCampaign,
  type PreSendInput,
} from '../../lambdas/core/preSendCheck';

const policy = buildDemoPolicy;

const PRIVATE_LINK = 'https://app.trackpitch.test/l/abc123';

const input = (overrides: Partial<PreSendInput> = {}): PreSendInput => ({
  policy: policy(),
  email: { text: `Hi Karl,\n\nHere it is: ${PRIVATE_LINK}\n\nBest, Luna`, wordCount: 90 },
  track: { publicStreamingUrl: false, allowDownload: false, released: false, genre: 'techno', name: 'Harbour Lights' },
  ...overrides,
});

const kinds = (i: PreSendInput) => preSendWarnings(i).map((w) => w.kind);

describe('preSendWarnings', () => {
  it('has nothing to say when the email, the track and the history keep to the policy, or when no policy is known', () => {
    const strict = policy({
      private_streaming_only: true,
      attachments_refused: true,
      unreleased_only: true,
      genres: ['techno', 'house'],
      max_email_words: 90,
      response_days: 14,
    });
    expect(preSendWarnings(input({ policy: strict }))).toEqual([]);
    expect(preSendWarnings(input({ policy: policy({ download_wanted: true }), track: { ...input().track, allowDownload: true } }))).toEqual([]);
    expect(preSendWarnings(input({ policy: undefined, track: { publicStreamingUrl: true, allowDownload: false, released: true, genre: 'house' } }))).toEqual(
      [],
    );
    expect(preSendWarnings(input({ policy: null }))).toEqual([]);
  });

  it('form_only: a web form or platform label is skipped by default, with a link to where they take demos', () => {
    expect(preSendWarnings(input({ policy: policy({ submit_by: 'web_form', submit_url: 'https://velvet.test/demos' }) }))).toEqual([
      { kind: 'form_only', message: preSendMessages.webFormOnly, skipByDefault: true, formUrl: 'https://velvet.test/demos' },
    ]);
    expect(preSendWarnings(input({ policy: policy({ submit_by: 'platform_only', submit_url: 'https://submit.example/velvet' }) }))).toEqual([
      {
        kind: 'form_only',
        message: 'Takes demos only through a submission platform, not by email.',
        skipByDefault: true,
        formUrl: 'https://submit.example/velvet',
      },
    ]);
  });

  it('private_links_only: a public streaming link in the track or anywhere in the email (text or HTML) warns; a private one does not', () => {
    const privateOnly = policy({ private_streaming_only: true });
    const warning = { kind: 'private_links_only', message: preSendMessages.privateLinksOnly, skipByDefault: false };
    expect(preSendWarnings(input({ policy: privateOnly, track: { ...input().track, publicStreamingUrl: true } }))).toEqual([warning]);
    expect(preSendWarnings(input({ policy: privateOnly, email: { text: 'Listen: https://soundcloud.com/luna/harbour-lights', wordCount: 3 } }))).toEqual([
      warning,
    ]);
    expect(
      kinds(input({ policy: privateOnly, email: { text: 'Listen below', html: '<a href="https://open.spotify.com/track/1x">Listen</a>', wordCount: 2 } })),
    ).toEqual(['private_links_only']);
    // A SoundCloud secret link and the private listen page are private.
    expect(kinds(input({ policy: privateOnly, email: { text: 'https://soundcloud.com/luna/harbour-lights/s-AbC123xyz', wordCount: 1 } }))).toEqual([]);
    // Without the rule the same public link is fine.
    expect(kinds(input({ track: { ...input().track, publicStreamingUrl: true } }))).toEqual([]);
  });

  it('download_wanted: only when downloads are off', () => {
    const wants = policy({ download_wanted: true });
    expect(preSendWarnings(input({ policy: wants }))).toEqual([{ kind: 'download_wanted', message: preSendMessages.downloadWanted, skipByDefault: false }]);
    expect(kinds(input({ policy: wants, track: { ...input().track, allowDownload: true } }))).toEqual([]);
  });

  it('unreleased_only: only for a track the artist marked released', () => {
    const unreleased = policy({ unreleased_only: true });
    expect(preSendWarnings(input({ policy: unreleased, track: { ...input().track, released: true } }))).toEqual([
      { kind: 'unreleased_only', message: 'Takes unreleased music only, and this track is released.', skipByDefault: false },
    ]);
    expect(kinds(input({ policy: unreleased }))).toEqual([]);
  });

  it('too_long: over the preferred words, not at them', () => {
    const short = policy({ max_email_words: 89 });
    expect(preSendWarnings(input({ policy: short }))).toEqual([
      { kind: 'too_long', message: 'Prefers emails under 89 words; this one has 90.', skipByDefault: false },
    ]);
    expect(kinds(input({ policy: policy({ max_email_words: 90 }) }))).toEqual([]);
  });

  it('genre_not_taken: a genre outside a non-empty list, named as people read it', () => {
    const house = policy({ genres: ['house', 'deep-house'] });
    expect(preSendWarnings(input({ policy: house }))).toEqual([
      { kind: 'genre_not_taken', message: 'Does not take Techno (takes House, Deep House).', skipByDefault: false },
    ]);
    expect(kinds(input({ policy: house, track: { ...input().track, genre: 'deep-house' } }))).toEqual([]);
    expect(kinds(input({ policy: policy({ genres: [] }) }))).toEqual([]);
    expect(kinds(input({ policy: house, track: { ...input().track, genre: '' } }))).toEqual([]);
  });

  it('passed: skipped by default, with the track and the date, policy or not', () => {
    expect(preSendWarnings(input({ policy: undefined, passedOn: { at: '2026-11-03T18:00:00.000Z' } }))).toEqual([
      { kind: 'passed', message: 'Passed on Harbour Lights on Nov 3, 2026.', skipByDefault: true },
    ]);
    const noName = input({ passedOn: { at: '2026-11-04T02:00:00.000Z' }, timeZone: 'America/Los_Angeles' });
    noName.track = { ...noName.track, name: undefined };
    expect(preSendWarnings(noName)[0]?.message).toBe('Passed on this track on Nov 3, 2026.');
  });

  it('lists every warning that applies, the skipping ones first', () => {
    const everything = input({
      policy: policy({
        submit_by: 'web_form',
        submit_url: 'https://velvet.test/demos',
        private_streaming_only: true,
        download_wanted: true,
        unreleased_only: true,
        genres: ['house'],
        max_email_words: 50,
      }),
      track: { publicStreamingUrl: true, allowDownload: false, released: true, genre: 'techno' },
      passedOn: { at: '2026-11-03T12:00:00.000Z' },
    });
    expect(kinds(everything)).toEqual(['passed', 'form_only', 'private_links_only', 'download_wanted', 'unreleased_only', 'too_long', 'genre_not_taken']);
    expect(
      preSendWarnings(everything)
        .filter((w) => w.skipByDefault)
        .map((w) => w.kind),
    ).toEqual(['passed', 'form_only']);
  });
});

describe('isPublicStreamingUrl', () => {
  it('knows public streaming pages from private and other links', () => {
    for (const url of [
      'https://soundcloud.com/luna/x',
      'https://www.youtube.com/watch?v=1',
      'https://youtu.be/1',
      'https://luna.bandcamp.com/track/x',
      'https://open.spotify.com/track/1',
    ]) {
      expect(isPublicStreamingUrl(url), url).toBe(true);
    }
    for (const url of [
      'https://soundcloud.com/luna/x/s-Ab12Cd',
      PRIVATE_LINK,
      'https://www.dropbox.com/s/x/track.wav',
      'not a link',
      'ftp://soundcloud.com/x',
      'https://notsoundcloud.com/x',
    ]) {
      expect(isPublicStreamingUrl(url), url).toBe(false);
    }
  });
});

describe('campaignPreSendInput: a campaign and a recipient as the check reads them (preview, send dialog and send route alike)', () => {
  const campaign = (overrides: Partial<PreSendCampaign> = {}): PreSendCampaign => ({
    track_name: 'Harbour Lights',
    track_url: 'https://soundcloud.com/luna/harbour-lights',
    genre: 'techno',
    track_id: null,
    allow_download: false,
    released: false,
    email_body: 'Hi [CONTACT_NAME],\n\nListen: https://soundcloud.com/luna/harbour-lights\n\nBest, Luna',
    ...overrides,
  });
  const recipient = (policy = buildDemoPolicy(), passedAt: string | null = null) => ({ policy, passedAt });
  const kindsFor = (c: PreSendCampaign, r = recipient()) => preSendWarnings(campaignPreSendInput(c, r)).map((w) => w.kind);

  it('a public link without an uploaded track is public; with one, every copy of it becomes the listen page, so it is not', () => {
    const privateOnly = recipient(buildDemoPolicy({ private_streaming_only: true }));
    expect(campaignPreSendInput(campaign(), privateOnly).track.publicStreamingUrl).toBe(true);
    expect(kindsFor(campaign(), privateOnly)).toEqual(['private_links_only']);
    const uploaded = campaign({ track_id: 'track-1' });
    expect(campaignPreSendInput(uploaded, privateOnly).track.publicStreamingUrl).toBe(false);
    expect(kindsFor(uploaded, privateOnly)).toEqual([]);
    // A secret SoundCloud link is private.
    const secret = 'https://soundcloud.com/luna/harbour-lights/s-AbC123';
    expect(kindsFor(campaign({ track_url: secret, email_body: `Listen: ${secret}` }), privateOnly)).toEqual([]);
  });

  it('downloads exist only on an uploaded track with downloads on; released and the genre come from the campaign', () => {
    const wants = recipient(buildDemoPolicy({ download_wanted: true }));
    expect(kindsFor(campaign({ allow_download: true }), wants)).toEqual(['download_wanted']);
    expect(kindsFor(campaign({ track_id: 'track-1', allow_download: true }), wants)).toEqual([]);
    expect(kindsFor(campaign({ released: true }), recipient(buildDemoPolicy({ unreleased_only: true })))).toEqual(['unreleased_only']);
    const house = recipient(buildDemoPolicy({ genres: ['house'] }));
    expect(kindsFor(campaign(), house)).toEqual(['genre_not_taken']);
    // An HTML campaign's free-text genre names no genre of the list: nothing to compare.
    expect(kindsFor(campaign({ genre: 'Electronic' }), house)).toEqual([]);
  });

  it("counts an HTML body's words without its tags and styles", () => {
    const html = '<!DOCTYPE html><html><head><style>p { color: red; }</style></head><body><p>One two three</p><p>four five</p></body></html>';
    expect(campaignPreSendInput(campaign({ email_body: html }), recipient()).email.wordCount).toBe(5);
    expect(kindsFor(campaign({ email_body: html }), recipient(buildDemoPolicy({ max_email_words: 20 })))).toEqual([]);
  });

  it('a pass on the track is dated in the zone given', () => {
    const input = campaignPreSendInput(campaign(), recipient(buildDemoPolicy(), '2026-11-04T02:00:00.000Z'), 'America/Los_Angeles');
    expect(preSendWarnings(input)).toEqual([{ kind: 'passed', message: 'Passed on Harbour Lights on Nov 3, 2026.', skipByDefault: true }]);
  });
});

describe('leftOutByCheck', () => {
  const formOnly = preSendWarnings(input({ policy: policy({ submit_by: 'web_form', submit_url: 'https://velvet.test/demos' }) }));
  const tooLong = preSendWarnings(input({ policy: policy({ max_email_words: 20 }) }));
  it('leaves out a recipient with a skipping warning unless the artist insists; a warning that only warns never does', () => {
    expect(leftOutByCheck(formOnly, false)).toBe(true);
    expect(leftOutByCheck(formOnly, true)).toBe(false);
    expect(leftOutByCheck(tooLong, false)).toBe(false);
    expect(leftOutByCheck([], false)).toBe(false);
  });
});
