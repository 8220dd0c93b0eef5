/**
 * The pitch pipeline's core (issue 28 §1, DESIGN §16): the stage a PITCHED item gives (derived from what
 * happened; the artist's Signed or Passed wins), the Tracks page's counts, the Dashboard's to-dos and a
 * contact's tracks, all from the items alone.
 */
import { describe, expect, it } from 'vitest';
import {
  contactTracksOf,
  entryOf,
  pipelineItemOf,
  pitchFactsOf,
  pitchSnapshotOf,
  stageOf,
  todosOf,
  tracksOf,
  type LoggedPitch,
  type PipelineItem,
} from '../../lambdas/core/pipeline';
import { buildContact } from '../fakes/builders';

const TRACK = 'Vd9aaaaaaaaaaaaaaaaaaa';
const OTHER_TRACK = 'Xx9aaaaaaaaaaaaaaaaaaa';

/** A sent pitch with nothing else yet, as the claim and the record leave it. */
function item(overrides: Partial<PipelineItem> = {}): PipelineItem {
  return pipelineItemOf({
    SK: `PITCHED#${TRACK}#addr${Math.random().toString(36).slice(2, 10)}`,
    track_name: 'Harbour Lights',
    track_url: 'https://music.test/harbour',
    name: 'Mara Velvet',
    email: 'mara@label.test',
    campaign_id: '01KAKZ3R0000000000000000AA',
    pitched_at: '2026-11-01T10:00:00.000Z',
    sent_at: '2026-11-01T10:00:01.000Z',
    ...overrides,
  });
}

describe('stageOf', () => {
  it.each([
    [{ awaiting_send: true, sent_at: null }, 'queued'],
    [{}, 'pitched'],
    [{ opened_at: '2026-11-02T00:00:00Z' }, 'opened'],
    [{ opened_at: '2026-11-02T00:00:00Z', listened_at: '2026-11-02T00:01:00Z' }, 'listened'],
    // A listen without a tracked open (images off) is still a listen.
    [{ listened_at: '2026-11-02T00:01:00Z' }, 'listened'],
    [{ listened_at: '2026-11-02T00:01:00Z', answer: 'interested', answered_at: '2026-11-02T00:02:00Z' }, 'answered'],
    [{ answer: 'not_for_us', answered_at: '2026-11-02T00:02:00Z' }, 'answered'],
    [{ answered_at: '2026-11-02T00:02:00Z', replied_at: '2026-11-03T00:00:00Z' }, 'replied'],
    [{ replied_at: '2026-11-03T00:00:00Z' }, 'replied'],
  ] as const)('%o derives %s', (facts, expected) => {
    expect(stageOf(item(facts as Partial<PipelineItem>))).toEqual({ stage: expected, derived_stage: expected });
  });

  it('a pitch sent before and claimed again (send again, not sent yet) is not queued: it was pitched', () => {
    expect(stageOf(item({ awaiting_send: true })).derived_stage).toBe('pitched');
  });

  it("the artist's mark wins over every derived stage, which is kept beside it", () => {
    expect(stageOf(item({ mark_stage: 'signed' }))).toEqual({ stage: 'signed', derived_stage: 'pitched' });
    expect(stageOf(item({ mark_stage: 'passed', opened_at: 'x', listened_at: 'y', answered_at: 'z', replied_at: 'w' }))).toEqual({
      stage: 'passed',
      derived_stage: 'replied',
    });
    expect(stageOf(item({ mark_stage: 'signed', awaiting_send: true, sent_at: null }))).toEqual({ stage: 'signed', derived_stage: 'queued' });
  });
});

describe('an item as read', () => {
  it('an item from before the pipeline reads its track key and address from its sort key, its name from its email', () => {
    const read = pipelineItemOf({ SK: `PITCHED#${TRACK}#cL0LNsAAAAAAAAAAAAAAAA`, email: 'a@b.test', campaign_id: 'c', pitched_at: 't', passed_at: 't2' });
    expect(read).toMatchObject({ track_key: TRACK, address_id: 'cL0LNsAAAAAAAAAAAAAAAA', name: 'a@b.test', track_name: '', passed_at: 't2', mark_stage: null });
    expect(stageOf(read).stage).toBe('pitched');
  });

  it('a pass taken back is stored NULL and reads as none; an unknown mark or answer reads as none', () => {
    expect(pipelineItemOf({ SK: `PITCHED#${TRACK}#a`, passed_at: null, mark_stage: 'maybe', answer: 'later' })).toMatchObject({
      passed_at: null,
      mark_stage: null,
      answer: null,
    });
  });

  it('an entry carries the mark with its note and dates, and nothing of a mark not set', () => {
    const marked = entryOf(item({ mark_stage: 'signed', mark_note: 'Contract out', mark_on: '2026-11-05', mark_set_at: '2026-11-05T09:00:00.000Z' }));
    expect(marked.mark).toEqual({ stage: 'signed', note: 'Contract out', on: '2026-11-05', set_at: '2026-11-05T09:00:00.000Z' });
    expect(marked).toMatchObject({ stage: 'signed', derived_stage: 'pitched', name: 'Mara Velvet', email: 'mara@label.test' });
    expect(entryOf(item()).mark).toBeNull();
  });

  it("an entry says when the contact passed on the track (Compose's picker shows it), and null when they did not", () => {
    expect(entryOf(item({ passed_at: '2026-11-03T18:00:00.000Z', mark_stage: 'passed' })).passed_at).toBe('2026-11-03T18:00:00.000Z');
    expect(entryOf(item()).passed_at).toBeNull();
  });
});

describe('the Tracks page', () => {
  it('counts each track’s contacts by what they reached, answers by answer, marks by stage; latest pitched first', () => {
    const items = [
      item({ opened_at: 'o', listened_at: 'l', answer: 'interested', answered_at: 'a' }),
      item({ opened_at: 'o', answer: 'not_for_us', answered_at: 'a', mark_stage: 'passed' }),
      item({ opened_at: 'o', mark_stage: 'signed' }),
      item({ awaiting_send: true, sent_at: null, pitched_at: '2026-11-04T00:00:00.000Z' }),
      item({ track_key: OTHER_TRACK, track_name: 'Night Drive', pitched_at: '2026-11-09T00:00:00.000Z', answer: 'send_wavs', answered_at: 'a' }),
    ];
    const tracks = tracksOf(items);
    expect(tracks.map((track) => track.track_key)).toEqual([OTHER_TRACK, TRACK]);
    expect(tracks[1]).toEqual({
      track_key: TRACK,
      name: 'Harbour Lights',
      track_id: null,
      track_url: 'https://music.test/harbour',
      last_pitched_at: '2026-11-04T00:00:00.000Z',
      counts: { pitched: 3, opened: 3, listened: 1, answered: { interested: 1, send_wavs: 0, not_for_us: 1 }, signed: 1, passed: 1 },
    });
    expect(tracks[0]!.counts.answered).toEqual({ interested: 0, send_wavs: 1, not_for_us: 0 });
  });

  it('a track renamed between campaigns shows its latest pitch’s name', () => {
    const [track] = tracksOf([
      item({ track_name: 'Old name', pitched_at: '2026-11-01T00:00:00Z' }),
      item({ track_name: 'New name', pitched_at: '2026-11-02T00:00:00Z' }),
    ]);
    expect(track!.name).toBe('New name');
  });

  it('no items: no tracks', () => {
    expect(tracksOf([])).toEqual([]);
  });
});

describe('to-dos and a contact’s tracks', () => {
  it('Interested and Send me the WAVs answers not done are to-dos, newest first; Not for us and done ones are not', () => {
    const todos = todosOf([
      item({ answer: 'interested', answered_at: '2026-11-02T00:00:00Z', answer_note: 'Send more' }),
      item({ answer: 'send_wavs', answered_at: '2026-11-03T00:00:00Z' }),
      item({ answer: 'send_wavs', answered_at: '2026-11-04T00:00:00Z', todo_done_at: '2026-11-05T00:00:00Z' }),
      item({ answer: 'not_for_us', answered_at: '2026-11-06T00:00:00Z' }),
      item(),
    ]);
    expect(todos.map((todo) => [todo.answer, todo.answered_at, todo.answer_note])).toEqual([
      ['send_wavs', '2026-11-03T00:00:00Z', null],
      ['interested', '2026-11-02T00:00:00Z', 'Send more'],
    ]);
    expect(todos[0]).toMatchObject({ track_key: TRACK, track_name: 'Harbour Lights', name: 'Mara Velvet', email: 'mara@label.test' });
  });

  it('a contact’s tracks carry their stage and pass, latest pitched first', () => {
    const tracks = contactTracksOf([
      item({ mark_stage: 'passed', passed_at: '2026-11-03T00:00:00Z' }),
      item({ track_key: OTHER_TRACK, track_name: 'Night Drive', pitched_at: '2026-11-09T00:00:00.000Z', opened_at: 'o' }),
    ]);
    expect(tracks).toEqual([
      { track_key: OTHER_TRACK, track_name: 'Night Drive', stage: 'opened', pitched_at: '2026-11-09T00:00:00.000Z', passed_at: null },
      { track_key: TRACK, track_name: 'Harbour Lights', stage: 'passed', pitched_at: '2026-11-01T10:00:00.000Z', passed_at: '2026-11-03T00:00:00Z' },
    ]);
  });
});

describe('the claim’s snapshot', () => {
  it('keeps the track and the contact as queued: the name as sent, the label as company, no link when the campaign has an upload', () => {
    const contact = buildContact({ id: 'addr', name: 'Mara Velvet', email: 'mara@label.test', label_name: 'Velvet Records' });
    expect(
      pitchSnapshotOf(
        { track_name: 'Harbour Lights', track_url: '', track_id: '01KAKZ3R0000000000000000TR' },
        { contact, recipient_name: 'Mara V.', recipient_email: 'mara@label.test' },
      ),
    ).toEqual({
      track_name: 'Harbour Lights',
      track_url: null,
      track_id: '01KAKZ3R0000000000000000TR',
      contact_id: 'addr',
      name: 'Mara V.',
      email: 'mara@label.test',
      company: 'Velvet Records',
      label_size: null,
    });
  });

  it("keeps the label size of a contact added from the directory (the board's label size filter)", () => {
    const contact = buildContact({ id: 'addr', email: 'mara@label.test', label_size: 'Boutique' });
    expect(
      pitchSnapshotOf(
        { track_name: 'Harbour Lights', track_url: 'https://music.test/h', track_id: null },
        { contact, recipient_name: null, recipient_email: contact.email },
      ),
    ).toMatchObject({ label_size: 'Boutique' });
  });
});

describe('the backfill’s facts', () => {
  const logged = (overrides: Partial<LoggedPitch>): LoggedPitch => ({
    track_key: TRACK,
    address_id: 'addr-1',
    sent_at: '2026-11-01T10:00:00.000Z',
    opened_at: null,
    listened_at: null,
    answer: null,
    answer_note: null,
    answered_at: null,
    replied_at: null,
    ...overrides,
  });

  it('an address pitched a track by two campaigns has one item: the first open, listen and mark, the latest answer and send', () => {
    const facts = pitchFactsOf([
      logged({ opened_at: '2026-11-02T00:00:00Z', answer: 'not_for_us', answered_at: '2026-11-02T01:00:00Z', replied_at: '2026-11-05T00:00:00Z' }),
      logged({
        sent_at: '2026-11-10T10:00:00.000Z',
        opened_at: '2026-11-11T00:00:00Z',
        listened_at: '2026-11-11T00:05:00Z',
        answer: 'interested',
        answer_note: 'Changed my mind',
        answered_at: '2026-11-11T01:00:00Z',
      }),
      logged({ address_id: 'addr-2' }),
      logged({ track_key: OTHER_TRACK }),
    ]);
    expect([...facts.keys()].sort()).toEqual([`${OTHER_TRACK}#addr-1`, `${TRACK}#addr-1`, `${TRACK}#addr-2`].sort());
    expect(facts.get(`${TRACK}#addr-1`)).toEqual({
      track_key: TRACK,
      address_id: 'addr-1',
      facts: {
        sent_at: '2026-11-10T10:00:00.000Z',
        opened_at: '2026-11-02T00:00:00Z',
        listened_at: '2026-11-11T00:05:00Z',
        replied_at: '2026-11-05T00:00:00Z',
        answer: 'interested',
        answer_note: 'Changed my mind',
        answered_at: '2026-11-11T01:00:00Z',
      },
    });
  });

  it('an earlier answer read after a later one does not replace it', () => {
    const facts = pitchFactsOf([
      logged({ answer: 'send_wavs', answered_at: '2026-11-03T00:00:00Z' }),
      logged({ answer: 'not_for_us', answered_at: '2026-11-02T00:00:00Z' }),
    ]);
    expect(facts.get(`${TRACK}#addr-1`)!.facts).toMatchObject({ answer: 'send_wavs', answered_at: '2026-11-03T00:00:00Z' });
  });
});
