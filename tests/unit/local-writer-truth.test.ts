/**
 * Issue 25 §1: the local writer states nothing about the track or the artist that the artist did not
 * give. It is run over many generated requests (tone, length, which fields are set, contact kinds), and
 * every claim a pitch tends to invent ("long intro and outro", "the past year", "charted"...) may appear
 * in an email only when an input the writer may draw on says it too.
 */
import { describe, expect, it } from 'vitest';
import { emailLengths } from '../../schema/api/campaigns';
import { tones } from '../../schema/api/options';
import { genreLabel } from '../../schema/email/placeholders';
import { LocalWriter } from '../../lambdas/adapters/local-writer/localWriter';
import type { WriterContact, WriterRequest } from '../../lambdas/ports';

const writer = new LocalWriter();

/** A claim the writer must never make unprompted: `pattern` in the email needs `pattern` in an input. */
interface Claim {
  about: string;
  pattern: RegExp;
}

const claims: Claim[] = [
  { about: 'intro/outro', pattern: /\b(intro|outro)s?\b/i },
  { about: 'easy to mix', pattern: /\b(easy to mix|dj-friendly|room to blend)\b/i },
  { about: 'arrangement', pattern: /\barrangement\b/i },
  { about: 'mixdown', pattern: /\bmix ?down\b/i },
  { about: 'mastering', pattern: /\bmaster(ed|ing)\b/i },
  { about: 'time spent', pattern: /\b(spent|took my time|past (year|months?)|last year|this year|for years)\b/i },
  { about: 'working hard', pattern: /\bwork(ing|ed)? hard\b/i },
  { about: 'vinyl', pattern: /\bvinyl\b/i },
  { about: 'radio', pattern: /\bradio\b/i },
  { about: 'support', pattern: /\b(support(ed|s)?|played (by|out))\b/i },
  { about: 'charts', pattern: /\bchart(ed|s|ing)?\b/i },
  { about: 'signing', pattern: /\b(signed|signing|free to sign)\b/i },
  { about: 'release status', pattern: /\b(unreleased|not been released|released|before it'?s out|before it is (out|released)|out anywhere)\b/i },
  { about: 'who heard it', pattern: /\b(handful|before anyone else|first to hear|first people to hear)\b/i },
  { about: 'independent artist', pattern: /\b(independent|on my own)\b/i },
  { about: 'listeners', pattern: /\b(listeners|followers|fanbase)\b/i },
  { about: 'formats on offer', pattern: /\b(stems?|extended mix|wav)\b/i },
  { about: 'sound systems', pattern: /\b(club system|big system|headphones)\b/i },
  { about: 'artistic history', pattern: /\b(shaped|my sound|strongest|means a lot to me|more music)\b/i },
  { about: 'following the recipient', pattern: /\b(following (your|what)|admired|big fan|loving your)\b/i },
  { about: 'musical key', pattern: /\b[A-G][#b♯♭]? ?(minor|major|min|maj)\b/ },
];

/** Genres the writer could name: each only when the track, the contact or the description names it. */
const genreWords = [
  'house',
  'techno',
  'trance',
  'dubstep',
  'drum & bass',
  'deep house',
  'tech house',
  'minimal',
  'ambient',
  'industrial',
  'electro',
  'garage',
  'disco',
  'acid',
  'hardcore',
  'progressive',
];

/** The texts a sentence about the track or the artist may come from (notes are never quoted). */
function sources(request: WriterRequest): string {
  const { track, contact, artist } = request;
  // Genres as the writer may name them: a slug ('drum-bass') also as its label ('Drum & Bass').
  const genres = [track.genre, ...(contact.genre ?? '').split(/[;,/]/)].map((genre) => `${genre} ${genreLabel(genre)}`);
  return [track.track_name, ...genres, track.mood ?? '', track.description, artist.name, contact.position ?? '', contact.label_name ?? '']
    .join('\n')
    .replace(/-/g, ' ');
}

const people: WriterContact[] = [
  { name: 'Karl Berg', label_name: 'Drumcode', contact_type: 'Label', genre: 'Techno; Industrial', position: 'A&R Manager', notes: 'Met at ADE' },
  {
    name: 'Ostgut Ton',
    label_name: 'Ostgut Ton',
    contact_type: 'Label',
    genre: 'Techno',
    position: 'A&R Manager',
    notes: 'Submission guidelines: Put the genre and BPM in the subject line',
  },
  { name: 'Hypnus', label_name: null, contact_type: 'Label', genre: null, position: null, notes: null },
  { name: 'Sam Rivers', label_name: 'Rinse FM', contact_type: 'DJ', genre: 'drum-bass', position: null, notes: null },
  { name: 'Ana', label_name: null, contact_type: 'DJ', genre: 'deep-house, tech-house / minimal', position: 'Resident DJ', notes: 'plays long sets' },
  { name: 'Kim Lee', label_name: null, contact_type: 'Fan', genre: null, position: null, notes: null },
];

const tracks: WriterRequest['track'][] = [
  {
    track_name: 'Concrete Dawn',
    track_url: 'https://soundcloud.com/norvik/concrete-dawn',
    genre: 'techno',
    mood: 'Dark',
    bpm: 132,
    description: 'Hypnotic 132 BPM techno with a rolling kick.',
  },
  {
    track_name: 'Night Drive',
    track_url: 'https://soundcloud.com/luna/night-drive',
    genre: 'deep-house',
    mood: null,
    bpm: null,
    description: 'Warm pads and a slow build.',
  },
  { track_name: 'X', track_url: 'https://x.example/t', genre: 'Electronic', mood: null, bpm: null, description: 'word '.repeat(60) },
  {
    track_name: 'Tidal',
    track_url: 'https://x.example/tidal',
    genre: 'trance',
    mood: 'Euphoric',
    bpm: 138,
    description: 'Mastered by Jane at Calyx, out on vinyl next spring, already played by two radio DJs.',
  },
];

const artists: WriterRequest['artist'][] = [
  { name: 'NORVIK', links: [{ label: 'SoundCloud', url: 'https://soundcloud.com/norvik' }] },
  { name: '', links: [] },
];

function* requests(): Generator<WriterRequest> {
  for (const contact of people)
    for (const track of tracks)
      for (const artist of artists) for (const tone of tones) for (const length of emailLengths) yield { contact, track, artist, tone, length };
}

describe('the local writer says only what is true', () => {
  it('makes no claim, names no genre and gives no BPM that its inputs do not contain, over many inputs', async () => {
    const problems = new Set<string>();
    let written = 0;
    for (const request of requests()) {
      const email = await writer.write(request);
      const text = `${email.subject}\n${email.body}`;
      const given = sources(request);
      for (const claim of claims) {
        const said = claim.pattern.exec(text)?.[0];
        if (said !== undefined && !claim.pattern.test(given)) problems.add(`${claim.about}: "${said}"`);
      }
      for (const genre of genreWords) {
        if (new RegExp(`\\b${genre}\\b`, 'i').test(text) && !new RegExp(`\\b${genre}\\b`, 'i').test(given)) problems.add(`genre not given: ${genre}`);
      }
      for (const [, number] of text.matchAll(/\b(\d+) ?bpm\b/gi)) {
        if (Number(number) !== request.track.bpm && !given.includes(number!)) problems.add(`BPM not given: ${number}`);
      }
      written++;
    }
    expect(written).toBe(people.length * tracks.length * artists.length * tones.length * emailLengths.length);
    expect([...problems].sort()).toEqual([]);
  });

  it('uses a claim the artist gave in the description, so the check above is not passed by silence alone', async () => {
    const request: WriterRequest = { contact: people[0]!, track: tracks[3]!, artist: artists[0]!, tone: 'professional', length: 250 };
    const { body } = await writer.write(request);
    expect(body).toContain('Mastered by Jane at Calyx');
  });
});
