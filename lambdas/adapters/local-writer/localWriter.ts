/**
 * The AI writer's local twin (npm start, tests): no network, deterministic. It writes a personal
 * email from sentence templates: a core that always names the recipient, the track, its genre, its
 * link and the contact's label, then optional sentences (personal ones first, then general ones in an
 * order drawn from a hash of the contact and track) until the body is near the requested word count.
 * Contact notes are data: only whether there are any changes the email, never their text.
 */
import type { EmailLength } from '../../../schema/api/campaigns';
import type { ContactType, Tone } from '../../../schema/api/options';
import { genreLabel } from '../../../schema/email/placeholders';
import { assertWritable, countWords, normaliseSubject, oneLine } from '../../core/writerPrompt';
import type { EmailWriter, WriterRequest, WrittenEmail } from '../../ports';
import { seededRandom } from '../../core/seededRandom';

/** Paragraphs of the body, in order. */
type Slot = 'opening' | 'track' | 'ask' | 'closing';
const SLOTS: readonly Slot[] = ['opening', 'track', 'ask', 'closing'];

interface Sentence {
  slot: Slot;
  text: string;
  /** Ends its paragraph on a line of its own (the link, so mail clients make it clickable). */
  ownLine?: boolean;
}

/** Everything the templates need, already cleaned: one-line texts, null when not set. */
interface Facts {
  tone: Tone;
  type: ContactType;
  name: string;
  label: string | null;
  position: string | null;
  contactGenres: string | null;
  hasNotes: boolean;
  track: string;
  url: string;
  genre: string;
  mood: string | null;
  bpm: number | null;
  summary: string | null;
  artist: string | null;
}

/** How far the body may be from the requested length (the tests hold the writer to it). */
export const LENGTH_TOLERANCE = 0.3;

/** FNV-1a: a small, stable 32-bit hash (the same request always picks the same phrasing). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const present = (value: string | null | undefined): string | null => {
  const text = value === null || value === undefined ? '' : oneLine(value);
  return text === '' ? null : text;
};

/** The first sentence of the artist's description when it is short enough to quote. */
function summaryOf(description: string): string | null {
  const text = present(description);
  if (!text) return null;
  const first = /^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
  if (countWords(first) > 30) return null;
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** 'techno, deep-house, minimal' → 'Techno and Deep House' (at most two, as people read them). */
function genresOf(genre: string | null): string | null {
  const parts = (genre ?? '')
    .split(',')
    .map((g) => present(g))
    .filter((g): g is string => g !== null)
    .map(genreLabel);
  return parts.length === 0 ? null : parts.slice(0, 2).join(' and ');
}

function factsOf(request: WriterRequest): Facts {
  const { track, contact } = request;
  return {
    tone: request.tone,
    type: contact.contact_type,
    name: oneLine(contact.name),
    label: present(contact.label_name),
    position: present(contact.position),
    contactGenres: genresOf(contact.genre),
    hasNotes: present(contact.notes) !== null,
    track: oneLine(track.track_name),
    url: track.track_url.trim(),
    genre: genreLabel(oneLine(track.genre)),
    mood: present(track.mood),
    bpm: track.bpm,
    summary: summaryOf(track.description),
    artist: present(request.artist.name),
  };
}

const greetings: Record<Tone, (name: string) => string> = {
  professional: (name) => `Dear ${name},`,
  friendly: (name) => `Hi ${name},`,
  casual: (name) => `Hey ${name},`,
};

const signOffs: Record<Tone, string> = { professional: 'Best regards', friendly: 'Cheers', casual: 'Catch you soon' };

/** The sentences every email has; `short` variants when the full ones alone would pass the length. */
function coreSentences(f: Facts, pick: Pick, short: boolean): Sentence[] {
  const quoted = `"${f.track}"`;
  const me = f.artist;
  const intro: Record<Tone, string[]> = {
    professional: short
      ? [`I would like to share my new ${f.genre} track, ${quoted}.`]
      : [
          `${me ? `My name is ${me}, and I am` : 'I am'} writing to share my new ${f.genre} track, ${quoted}.`,
          `${me ? `I am ${me}, an independent producer, and I` : 'I'} would like to introduce my latest ${f.genre} release, ${quoted}.`,
        ],
    friendly: short
      ? [`I've just finished a new ${f.genre} track, ${quoted}.`]
      : [
          `${me ? `It's ${me} here, and I` : 'I'} wanted to share my new ${f.genre} track with you: ${quoted}.`,
          `${me ? `This is ${me}, and I've` : "I've"} just finished a new ${f.genre} track called ${quoted} and thought of you straight away.`,
        ],
    casual: short
      ? [`Just made a new ${f.genre} track, ${quoted}.`]
      : [
          `${me ? `${me} here, just` : 'Just'} finished a fresh ${f.genre} track called ${quoted} and had to send it your way.`,
          `${me ? `It's ${me}, and I've` : "I've"} got a new ${f.genre} tune for you: ${quoted}.`,
        ],
  };
  const link: Record<Tone, string[]> = {
    professional: [`You can listen to it here: ${f.url}`, `The full track is available here: ${f.url}`],
    friendly: [`Here's the link: ${f.url}`, `You can hear it here: ${f.url}`],
    casual: [`Link's here: ${f.url}`, `Have a listen: ${f.url}`],
  };
  const yourLabel = f.label ?? 'your label';
  const ask: Record<ContactType, Record<Tone, string[]>> = {
    Label: {
      professional: short
        ? [`I would be grateful if you would consider it for ${yourLabel}.`]
        : [
            `I would be grateful if you would consider it for release on ${yourLabel}.`,
            `I believe it could be a strong fit for ${yourLabel}, and I would welcome your consideration.`,
          ],
      friendly: short
        ? [`Would you consider it for ${yourLabel}?`]
        : [`I'd love for you to consider it for ${yourLabel}.`, `I think it could be a great fit for ${yourLabel} and would love to hear what you think.`],
      casual: short ? [`Could it work for ${yourLabel}?`] : [`Reckon it could work for ${yourLabel}?`, `Would love to know if it's one for ${yourLabel}.`],
    },
    DJ: {
      professional: short
        ? ['I hope it earns a place in your sets.']
        : ['I hope it might earn a place in your sets or on one of your shows.', 'I would be delighted if you found a spot for it in your sets.'],
      friendly: short
        ? ["I'd love to hear it in your sets."]
        : ["I'd love to hear it in one of your sets or shows.", 'I think it could work really well in your sets.'],
      casual: short ? ['Would love it in your sets.'] : ['Would be amazing to hear it in one of your sets.', 'Reckon it could go off in your sets.'],
    },
    Fan: {
      professional: short
        ? ['I wanted you to have an early listen.']
        : ['I wanted you to have an early listen before it is released.', 'As a thank-you for your support, I would like you to hear it before anyone else.'],
      friendly: short
        ? ['Here is an early listen, just for you.']
        : ["I wanted you to have an early listen before it's out.", "You've supported my music, so I wanted you to hear this one first."],
      casual: short ? ['Early listen, just for you.'] : ["Wanted you to get an early listen before it's out.", "You're getting this one before anyone else."],
    },
  };
  const closing: Record<Tone, string[]> = {
    professional: short ? ['Thank you for your time.'] : ['Thank you for your time and consideration.', 'Thank you for taking the time to listen.'],
    friendly: short ? ['Thanks so much!'] : ['Thanks so much for listening!', 'Thanks a lot for taking the time!'],
    casual: short ? ['Thanks!'] : ['Thanks for giving it a spin.', 'Cheers for listening.'],
  };
  const sentences: Sentence[] = [{ slot: 'opening', text: pick(intro[f.tone]) }];
  // The label is named for every type: in the ask for a label, as recognition for a DJ or fan.
  if (f.label && f.type !== 'Label') {
    const recognition: Record<Tone, string[]> = {
      professional: [`I have been following your work with ${f.label}.`, `I have long admired what you do with ${f.label}.`],
      friendly: [`I've been following what you do with ${f.label}.`, `I really like what you've been doing with ${f.label}.`],
      casual: [`Big fan of what you do with ${f.label}.`, `Been loving your stuff with ${f.label}.`],
    };
    sentences.push({ slot: 'opening', text: pick(recognition[f.tone]) });
  }
  sentences.push(
    { slot: 'track', text: pick(link[f.tone]), ownLine: true },
    { slot: 'ask', text: pick(ask[f.type][f.tone]) },
    { slot: 'closing', text: pick(closing[f.tone]) },
  );
  return sentences;
}

/** Sentences about this recipient and this track, used before any general one. */
function personalSentences(f: Facts, pick: Pick): Sentence[] {
  const sentences: Sentence[] = [];
  const formal = f.tone === 'professional';
  if (f.summary) sentences.push({ slot: 'track', text: pick([`In a few words: ${f.summary}`, `A little about it: ${f.summary}`]) });
  if (f.mood || f.bpm !== null) {
    const mood = f.mood ? `${/^[aeiou]/i.test(f.mood) ? 'an' : 'a'} ${f.mood.toLowerCase()} track` : 'a track';
    sentences.push({ slot: 'track', text: `It's ${mood}${f.bpm !== null ? ` at ${f.bpm} BPM` : ''}.` });
  }
  if (f.contactGenres) {
    sentences.push({
      slot: 'opening',
      text: pick(
        formal
          ? [
              `Given your focus on ${f.contactGenres}, I thought this track would be relevant to you.`,
              `As someone who works with ${f.contactGenres}, I believe you will appreciate it.`,
            ]
          : [
              `Since you're into ${f.contactGenres}, I think this one could be right up your street.`,
              `You know ${f.contactGenres} inside out, so I'd really like your ears on it.`,
            ],
      ),
    });
  }
  if (f.position) {
    const at = f.label ? ` at ${f.label}` : '';
    sentences.push({
      slot: 'opening',
      text: formal
        ? `I know that as ${f.position}${at} you receive a lot of music, so I will keep this brief.`
        : `I know you hear a lot of music as ${f.position}${at}, so I'll keep it short.`,
    });
  }
  if (f.hasNotes) {
    sentences.push({ slot: 'opening', text: formal ? 'I chose this track with you in mind.' : 'I picked this one with you in mind.' });
  }
  return sentences;
}

/** General sentences any pitch can use; the type's own ones first. */
function generalSentences(f: Facts, pick: Pick): Sentence[] {
  const byType: Record<ContactType, Sentence[]> = {
    Label: [
      { slot: 'ask', text: pick(['The track is unreleased and available for signing.', 'It has not been released anywhere yet, so it is free to sign.']) },
      {
        slot: 'track',
        text: f.label
          ? `I think it would sit well alongside the releases in the ${f.label} catalogue.`
          : 'I think it would sit well alongside the releases in your catalogue.',
      },
    ],
    DJ: [
      {
        slot: 'track',
        text: pick([
          'It has a long intro and outro, so it is easy to mix in and out of.',
          'The intro and outro are DJ-friendly, with plenty of room to blend.',
        ]),
      },
      { slot: 'ask', text: "I'd love to hear how it goes down on a dancefloor." },
    ],
    Fan: [
      {
        slot: 'ask',
        text: pick(["You're one of the first people to hear it, before it's out anywhere else.", 'Only a handful of people have heard it so far.']),
      },
      { slot: 'closing', text: "I'd love to know what you think once you've had a listen." },
    ],
  };
  const general: Sentence[] = [
    {
      slot: 'opening',
      text: pick([
        "I'm an independent electronic music artist, and I've spent the past year working hard on my sound.",
        "I've been releasing music on my own and building a small but loyal group of listeners.",
      ]),
    },
    { slot: 'opening', text: 'This track means a lot to me, and I wanted to share it with the right people first.' },
    {
      slot: 'track',
      text: pick([
        "I spent a long time on the arrangement and the mixdown, and I think it's one of the strongest things I've made.",
        'I took my time over the arrangement and the mixdown to get every detail right.',
      ]),
    },
    { slot: 'track', text: `The ${f.genre} sound has shaped a lot of my music, and this track is my own take on it.` },
    { slot: 'track', text: pick(['It is made to work both on a big system and on headphones.', 'It works on a club system as well as on headphones.']) },
    {
      slot: 'ask',
      text: pick([
        "I'd really value your honest feedback, even if it's not the right fit.",
        'Any feedback you have would mean a lot, even if it is not for you.',
      ]),
    },
    { slot: 'ask', text: "If it helps, I'm happy to send a WAV file, an extended mix or the stems." },
    { slot: 'ask', text: "I'm also glad to share more background on the track or on me as an artist." },
    { slot: 'ask', text: "There's no rush at all: listen whenever you have a moment." },
    { slot: 'closing', text: "More music is on the way, so I'd love to stay in touch." },
    { slot: 'closing', text: 'If you know someone else who might like it, feel free to pass it along.' },
  ];
  return [...byType[f.type], ...general];
}

/** One of `options`, drawn by the seeded generator. */
type Pick = (options: readonly string[]) => string;

/** Draws `items` in an order given by the generator (Fisher–Yates). */
function shuffled<T extends object>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const [last, drawn] = [out[i], out[j]];
    if (!last || !drawn) throw new Error(`shuffled: index ${j} or ${i} is outside ${out.length} items`);
    [out[i], out[j]] = [drawn, last];
  }
  return out;
}

function subjectOf(f: Facts, pick: Pick): string {
  const quoted = `"${f.track}"`;
  const options: Record<ContactType, string[]> = {
    Label: [`Demo submission: ${quoted} (${f.genre})`, `New ${f.genre} demo for ${f.label ?? 'your label'}: ${quoted}`],
    DJ: [`New ${f.genre} track for your sets: ${quoted}`, `${quoted}: fresh ${f.genre} for your shows`],
    Fan: [`Early listen: ${quoted}`, `You're first to hear ${quoted}`],
  };
  return normaliseSubject(pick(options[f.type]));
}

function bodyOf(greeting: string, sentences: readonly Sentence[], signOff: string): string {
  const paragraphs = SLOTS.map((slot) => {
    const inSlot = sentences.filter((s) => s.slot === slot);
    const prose = inSlot
      .filter((s) => !s.ownLine)
      .map((s) => s.text)
      .join(' ');
    const lines = inSlot.filter((s) => s.ownLine).map((s) => s.text);
    return [prose, ...lines].filter((line) => line !== '').join('\n');
  });
  return [greeting, ...paragraphs.slice(0, -1), `${paragraphs.at(-1)}\n\n${signOff}`].join('\n\n');
}

/**
 * The body's sentences for a length: the core, then optional sentences in order, each only while the
 * body stays at or under the target (never past it), so the result lands just under the target.
 */
function chooseSentences(core: Sentence[], optional: Sentence[], fixedWords: number, target: EmailLength): Sentence[] {
  const chosen = [...core];
  let words = fixedWords + core.reduce((n, s) => n + countWords(s.text), 0);
  for (const sentence of optional) {
    const more = countWords(sentence.text);
    if (words + more > target) continue;
    chosen.push(sentence);
    words += more;
  }
  // Keep each paragraph in its written order, whichever sentences were picked.
  const order = new Map([...core, ...optional].map((s, i) => [s, i]));
  const position = (sentence: Sentence) => order.get(sentence) ?? 0; // every chosen sentence is in `order`
  return chosen.sort((a, b) => position(a) - position(b));
}

export class LocalWriter implements EmailWriter {
  write(request: WriterRequest): Promise<WrittenEmail> {
    // A promise that rejects, as from an async function, when the request cannot be written.
    return new Promise((resolve) => {
      resolve(this.writeNow(request));
    });
  }

  private writeNow(request: WriterRequest): WrittenEmail {
    assertWritable(request);
    const f = factsOf(request);
    const seed = hash([f.name, f.label ?? '', f.type, f.contactGenres ?? '', f.position ?? '', f.hasNotes ? 'notes' : '', f.track].join('\u0000'));
    const random = seededRandom(seed);
    const pick: Pick = (options) => {
      const option = options[Math.floor(random() * options.length)];
      if (option === undefined) throw new Error('pick needs at least one option');
      return option;
    };

    const greeting = greetings[f.tone](f.name);
    const signOff = f.artist ? `${signOffs[f.tone]},\n${f.artist}` : `${signOffs[f.tone]}.`;
    const fixedWords = countWords(greeting) + countWords(signOff);
    const max = request.length * (1 + LENGTH_TOLERANCE);
    let core = coreSentences(f, pick, false);
    if (fixedWords + core.reduce((n, s) => n + countWords(s.text), 0) > max) core = coreSentences(f, pick, true);

    const optional = [...personalSentences(f, pick), ...shuffled(generalSentences(f, pick), random)];
    const sentences = chooseSentences(core, optional, fixedWords, request.length);
    return { subject: subjectOf(f, pick), body: bodyOf(greeting, sentences, signOff) };
  }
}
