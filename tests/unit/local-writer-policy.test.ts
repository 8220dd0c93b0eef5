/**
 * The AI writer follows the recipient's demo policy (issue 28 §2): the prompt carries the policy in
 * plain words and its rules, and the local writer, over every tone, length and kind of contact, never
 * speaks of a download to a label that takes private streaming links only, offers one to a label that
 * wants it, and keeps to a label's preferred length.
 */
import { describe, expect, it } from 'vitest';
import { emailLengths } from '../../schema/api/campaigns';
import { tones } from '../../schema/api/options';
import type { DemoPolicy } from '../../schema/api/demoPolicyValues';
import { LocalWriter } from '../../lambdas/adapters/local-writer/localWriter';
import { buildWriterPrompt, contactData, countWords, DATA_BLOCKS, writerLength } from '../../lambdas/core/writerPrompt';
import type { WriterContact, WriterRequest } from '../../lambdas/ports';
import { writerRequestFor, writerRequestKey } from '../../lambdas/core/compose';
import { buildCampaign, buildContact, buildDemoPolicy } from '../fakes/builders';

const writer = new LocalWriter();

const policy = buildDemoPolicy;

const people: WriterContact[] = [
  {
    name: 'Ostgut Ton',
    label_name: 'Ostgut Ton',
    contact_type: 'Label',
    genre: 'Techno',
    position: 'A&R Manager',
    notes: 'Submission guidelines: Private SoundCloud links only.',
  },
  { name: 'Karl Berg', label_name: 'Drumcode', contact_type: 'Label', genre: 'Techno; Industrial', position: 'A&R Manager', notes: null },
  { name: 'Hypnus', label_name: null, contact_type: 'Label', genre: null, position: null, notes: null },
  { name: 'Sam Rivers', label_name: 'Rinse FM', contact_type: 'DJ', genre: 'drum-bass', position: 'DJ', notes: null },
];

const request = (contact: WriterContact, overrides: Partial<WriterRequest> = {}): WriterRequest => ({
  track: {
    track_name: 'Harbour Lights',
    track_url: 'https://soundcloud.com/luna/harbour-lights',
    genre: 'techno',
    mood: 'Dark',
    bpm: 132,
    description: 'A hypnotic roller.',
  },
  tone: 'professional',
  length: 150,
  artist: { name: 'Luna Vale', links: [] },
  contact,
  ...overrides,
});

/** Every request over tones, lengths and people, with this policy. */
const requestsWith = (demo_policy: DemoPolicy) =>
  people.flatMap((person) => tones.flatMap((tone) => emailLengths.map((length) => request({ ...person, demo_policy }, { tone, length }))));

const DOWNLOAD_WORDING = /\b(download|downloads|downloadable|wav|wavs|files?|attach(ed|ment|ments)?)\b/i;

describe('the local writer and a demo policy', () => {
  it('writes no download wording to a label asking for private streaming links only, over every tone, length and contact', async () => {
    for (const r of requestsWith(policy({ private_streaming_only: true, attachments_refused: true }))) {
      const { subject, body } = await writer.write(r);
      expect(`${subject}\n${body}`, `${r.contact.name} ${r.tone} ${r.length}`).not.toMatch(DOWNLOAD_WORDING);
    }
  });

  it('offers a download link to a label that wants one (so the check above is not passed by silence alone)', async () => {
    for (const r of requestsWith(policy({ download_wanted: true }))) {
      const { body } = await writer.write(r);
      expect(body, `${r.contact.name} ${r.tone} ${r.length}`).toMatch(/download link, just reply and I('ll| will) send one\./);
    }
  });

  it('keeps the body within a preferred maximum shorter than the requested length', async () => {
    for (const r of requestsWith(policy({ max_email_words: 100 })).filter((each) => each.length === 250)) {
      const { body } = await writer.write(r);
      expect(countWords(body), `${r.contact.name} ${r.tone}`).toBeLessThanOrEqual(100);
    }
    expect(writerLength(request(people[0]!, { length: 250 }))).toBe(250);
    expect(writerLength(request({ ...people[0]!, demo_policy: policy({ max_email_words: 400 }) }, { length: 100 }))).toBe(100);
  });

  it('reaches the writer from the contact (core/compose), and a contact without one gives the request (and its key) it gave before', () => {
    const campaign = buildCampaign();
    const artist = { name: 'Luna Vale', links: [] };
    const withPolicy = writerRequestFor(campaign, buildContact({ demo_policy: policy({ private_streaming_only: true }) }), artist);
    expect(withPolicy.contact.demo_policy).toEqual(policy({ private_streaming_only: true }));
    const without = writerRequestFor(campaign, buildContact(), artist);
    expect(Object.keys(without.contact)).toEqual(['name', 'label_name', 'contact_type', 'genre', 'position', 'notes']);
    expect(writerRequestKey(without)).not.toBe(writerRequestKey(withPolicy));
  });
});

describe('the writer prompt and a demo policy', () => {
  it('gives the policy in plain words in the contact data, and its rules in the task', () => {
    const r = request({ ...people[0]!, demo_policy: policy({ private_streaming_only: true, max_email_words: 120, response_days: 14 }) }, { length: 250 });
    expect(contactData(r.contact).demo_policy).toBe('Demos by email · Private streaming links only · Emails under 120 words · Replies in about 14 days');
    const { user } = buildWriterPrompt(r);
    expect(user).toContain(`Follow the recipient's demo policy (demo_policy in ${DATA_BLOCKS.contact}):`);
    expect(user).toContain(
      '- They take private streaming links only: do not mention, offer or promise a download, a WAV, a file or an attachment of any kind.',
    );
    expect(user).toContain('- They prefer emails under 120 words: keep the body under that.');
    expect(user).toContain('Length: about 120 words for the body.');
    expect(user).not.toMatch(/offer to send one/);
  });

  it('lets a label that wants a download get an offer, and says nothing of policies without one', () => {
    const { user } = buildWriterPrompt(request({ ...people[1]!, demo_policy: policy({ download_wanted: true, unreleased_only: true }) }));
    expect(user).toContain('- They want a download link: you may offer to send one if they reply; never say one is attached or included.');
    expect(user).toContain('- They take unreleased music only: still say nothing about release status (it is not among the facts).');
    const plain = buildWriterPrompt(request(people[1]!));
    expect(plain.user).not.toMatch(/demo policy/i);
    expect(contactData(request(people[1]!).contact)).not.toHaveProperty('demo_policy');
  });

  it('follow-ups follow the policy too', () => {
    const r = request(
      { ...people[0]!, demo_policy: policy({ private_streaming_only: true }) },
      { followUp: { step: 1, first_subject: 'Harbour Lights', first_body: 'Hi' } },
    );
    expect(buildWriterPrompt(r).user).toContain('They take private streaming links only');
  });
});
