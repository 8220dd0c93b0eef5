/**
 * The AI writer's local twin (npm start, tests): no network, deterministic. It writes a personal
 * email from sentence templates: a core that always names the recipient, the track, its genre, its
 * link and the contact's label, then optional sentences (personal ones first, then courtesy ones in an
 * order drawn from a hash of the contact and track) until the body is near the requested word count.
 * It states only facts the artist gave (track fields, description, profile) and each once; every
 * other sentence is courtesy (issue 25). Contact notes are data: their presence, and a guideline on
 * what the subject must carry, change the email; their text is never written.
 */
import type { ContactType, Tone } from '../../../schema/api/options';
import { genreLabel, socialLinksText } from '../../../schema/email/placeholders';
import { assertWritable, countWords, mayMentionDownload, normaliseSubject, oneLine, writerLength } from '../../core/writerPrompt';
import type { EmailWriter, WriterRequest, WrittenEmail } from '../../ports';
import { seededRandom } from '../../core/seededRandom';
import { firstNameOf } from '../../../schema/email/names';

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
  /** Who the greeting names: a person's first name, or the label's team for a label address. */
  addressee: string;
  label: string | null;
  position: string | null;
  /** The contact's genres as running text ('techno and industrial'). */
  contactGenres: string | null;
  hasNotes: boolean;
  /** The recipient's demo policy asks for a download link (issue 28 §2): the email offers one; otherwise it never speaks of downloads. */
  offersDownload: boolean;
  /** What the contact's saved guideline asks the subject line to carry. */
  subjectAsks: SubjectAsks;
  track: string;
  url: string;
  /** The track's genre as running text ('deep house'), null when it says nothing ('other'). */
  genre: string | null;
  /** The track's genre as a title, for the subject ('Deep House'). */
  genreTitle: string;
  /** The mood words and BPM the description does not already say (each fact is said once). */
  mood: string | null;
  bpm: number | null;
  /** The BPM as given, for the subject (the body may leave it to the description). */
  bpmGiven: number | null;
  summary: string | null;
  artist: string | null;
  links: { label: string; url: string }[];
}

interface SubjectAsks {
  genre: boolean;
  bpm: boolean;
  artist: boolean;
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

/** 'a', 'a and b', 'a, b and c': a list as people write it. */
function joinNaturally(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A list typed in one cell ('Techno; Industrial', 'house, techno / minimal') as its items. */
function listItems(cell: string | null): string[] {
  return (cell ?? '')
    .split(/[;,/]/)
    .map((item) => present(item))
    .filter((item): item is string => item !== null);
}

/** A genre in running text: 'Deep House' → 'deep house'; acronyms such as 'UK' or 'IDM' keep their case. */
function inRunningText(genre: string): string {
  return genre
    .split(' ')
    .map((word) => (/^[A-Z][a-z]+$/.test(word) ? word.toLowerCase() : word))
    .join(' ');
}

/** 'techno, deep-house; minimal' → 'techno, deep house and minimal' (at most three, as people read them). */
function genresOf(genre: string | null): string | null {
  const parts = [...new Set(listItems(genre).map((g) => inRunningText(genreLabel(g))))];
  return parts.length === 0 ? null : joinNaturally(parts.slice(0, 3));
}

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * A label address (the name is the label's, as for directory contacts, or a label with no person
 * behind it) is greeted as the label's team; a person by their first name.
 */
function addresseeOf(contact: WriterRequest['contact']): string {
  const name = oneLine(contact.name);
  const label = present(contact.label_name);
  if (label && sameText(name, label)) return `${label} team`;
  if (contact.contact_type === 'Label' && !label) return `${name} team`;
  // The first name the preview turns into [CONTACT_NAME] (core/compose nameForms), so both agree.
  return firstNameOf(name) ?? name;
}

/**
 * What a saved guideline (a directory contact's notes end with 'Submission guidelines: …') asks the
 * subject line to carry, e.g. 'Put the genre and BPM in the subject line'. Only the sentences that
 * speak of the subject count; the notes are otherwise never read.
 */
function subjectAsksOf(notes: string | null): SubjectAsks {
  const aboutSubject = (notes ?? '').split(/(?<=[.!?\n])/).filter((sentence) => /\bsubject\b/i.test(sentence));
  const asks = (pattern: RegExp) => aboutSubject.some((sentence) => pattern.test(sentence));
  return { genre: asks(/\b(genre|style)s?\b/i), bpm: asks(/\b(bpm|tempo)\b/i), artist: asks(/\b(artist|your name|producer)\b/i) };
}

/** The mood words the description does not already say ('Dark, Hypnotic' with 'Hypnotic 132 BPM…' → 'dark'). */
function moodOf(mood: string | null, summary: string | null): string | null {
  const words = listItems(mood)
    .map((word) => word.toLowerCase())
    .filter((word) => !summary?.toLowerCase().includes(word));
  return words.length === 0 ? null : words.join(', ');
}

function factsOf(request: WriterRequest): Facts {
  const { track, contact } = request;
  const summary = summaryOf(track.description);
  const title = genreLabel(oneLine(track.genre));
  const saysBpm = track.bpm !== null && summary !== null && new RegExp(`\\b${track.bpm}\\b`).test(summary);
  return {
    tone: request.tone,
    type: contact.contact_type,
    addressee: addresseeOf(contact),
    label: present(contact.label_name),
    position: present(contact.position),
    contactGenres: genresOf(contact.genre),
    hasNotes: present(contact.notes) !== null,
    offersDownload: mayMentionDownload(contact.demo_policy),
    subjectAsks: subjectAsksOf(contact.notes),
    track: oneLine(track.track_name),
    url: track.track_url.trim(),
    genre: sameText(title, 'other') ? null : inRunningText(title),
    genreTitle: title,
    mood: moodOf(track.mood, summary),
    bpm: saysBpm ? null : track.bpm,
    bpmGiven: track.bpm,
    summary,
    artist: present(request.artist.name),
    links: request.artist.links,
  };
}

const greetings: Record<Tone, (name: string) => string> = {
  professional: (name) => `Dear ${name},`,
  friendly: (name) => `Hi ${name},`,
  casual: (name) => `Hey ${name},`,
};

const signOffs: Record<Tone, string> = { professional: 'Best regards', friendly: 'Cheers', casual: 'Catch you soon' };

/** The sign-off, the artist's name and their links, one 'Label: url' line each, as {{SOCIAL_LINKS}} gives them. */
function signatureOf(f: Facts): string {
  const links = socialLinksText(f.links);
  const lines = [`${signOffs[f.tone]}${f.artist || links ? ',' : '.'}`, f.artist, links].filter((line): line is string => !!line);
  return lines.join('\n');
}

/** The sentences every email has; `short` variants when the full ones alone would pass the length. */
function coreSentences(f: Facts, pick: Pick, short: boolean): Sentence[] {
  const quoted = `"${f.track}"`;
  const me = f.artist;
  const newTrack = f.genre ? `new ${f.genre} track` : 'new track';
  const intro: Record<Tone, string[]> = {
    professional: short
      ? [`I would like to share my ${newTrack}, ${quoted}.`]
      : [
          `${me ? `My name is ${me}, and I am` : 'I am'} writing to share my ${newTrack}, ${quoted}.`,
          `${me ? `I am ${me}, and I` : 'I'} would like to introduce my ${newTrack}, ${quoted}.`,
        ],
    friendly: short
      ? [`Here is my ${newTrack}, ${quoted}.`]
      : [
          `${me ? `It's ${me} here, and I` : 'I'} wanted to share my ${newTrack} with you: ${quoted}.`,
          `${me ? `This is ${me}, and I've` : "I've"} got a ${newTrack} called ${quoted} that I'd love you to hear.`,
        ],
    casual: short
      ? [`Got a ${newTrack} for you, ${quoted}.`]
      : [
          `${me ? `${me} here with` : 'Here is'} a fresh ${f.genre ? `${f.genre} ` : ''}track called ${quoted}, and I had to send it your way.`,
          `${me ? `It's ${me}, and I've` : "I've"} got a ${f.genre ? `${f.genre} tune` : 'new tune'} for you: ${quoted}.`,
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
        : ['I hope it might earn a place in one of your sets.', 'I would be delighted if you found a spot for it in your sets.'],
      friendly: short ? ["I'd love to hear it in your sets."] : ["I'd love to hear it in one of your sets.", 'I think it could work really well in your sets.'],
      casual: short ? ['Would love it in your sets.'] : ['Would be amazing to hear it in one of your sets.', 'Reckon it could go off in your sets.'],
    },
    Fan: {
      professional: short
        ? ['I wanted you to have a listen.']
        : ['I wanted you to have a listen, and I would love to know what you make of it.', 'I would like you to be one of the people I share it with.'],
      friendly: short ? ['Here it is, just for you.'] : ['I wanted you to have a listen, just for you.', 'I wanted to share this one with you personally.'],
      casual: short ? ['Just for you.'] : ['Wanted you to have a listen.', 'Sending this one your way personally.'],
    },
  };
  const closing: Record<Tone, string[]> = {
    professional: short ? ['Thank you for your time.'] : ['Thank you for your time and consideration.', 'Thank you for taking the time to listen.'],
    friendly: short ? ['Thanks so much!'] : ['Thanks so much for listening!', 'Thanks a lot for taking the time!'],
    casual: short ? ['Thanks!'] : ['Thanks for giving it a spin.', 'Cheers for listening.'],
  };
  const sentences: Sentence[] = [{ slot: 'opening', text: pick(intro[f.tone]) }];
  // The label is named for every type: in the ask for a label, here for a DJ or fan (a wish, not a claim).
  if (f.label && f.type !== 'Label') {
    const suits: Record<Tone, string[]> = {
      professional: [`I thought it might suit your work with ${f.label}.`, `I believe it could suit what you do with ${f.label}.`],
      friendly: [`I think it could suit what you do with ${f.label}.`, `I thought of what you do with ${f.label} for this one.`],
      casual: [`Reckon it could suit what you do with ${f.label}.`, `Thought of your ${f.label} stuff for this one.`],
    };
    sentences.push({ slot: 'opening', text: pick(suits[f.tone]) });
  }
  sentences.push({ slot: 'track', text: pick(link[f.tone]), ownLine: true }, { slot: 'ask', text: pick(ask[f.type][f.tone]) });
  // What the recipient's policy asks for is said whatever the length. An offer, not a claim: nothing is said to be attached or included.
  if (f.offersDownload) {
    sentences.push({
      slot: 'ask',
      text:
        f.tone === 'professional'
          ? 'If you would like a download link, just reply and I will send one.'
          : "If you'd like a download link, just reply and I'll send one.",
    });
  }
  sentences.push({ slot: 'closing', text: pick(closing[f.tone]) });
  return sentences;
}

/** Sentences about this recipient and this track, from what was given, used before any courtesy. */
function personalSentences(f: Facts, pick: Pick): Sentence[] {
  const sentences: Sentence[] = [];
  const formal = f.tone === 'professional';
  if (f.summary) sentences.push({ slot: 'track', text: pick([`In a few words: ${f.summary}`, `A little about it: ${f.summary}`]) });
  if (f.mood || f.bpm !== null) {
    const mood = f.mood ? `${/^[aeiou]/i.test(f.mood) ? 'an' : 'a'} ${f.mood} track` : 'a track';
    sentences.push({ slot: 'track', text: `It's ${mood}${f.bpm !== null ? ` at ${f.bpm} BPM` : ''}.` });
  }
  if (f.contactGenres) {
    sentences.push({
      slot: 'opening',
      text: pick(
        formal
          ? [
              `Given your focus on ${f.contactGenres}, I thought this track would be relevant to you.`,
              `As someone who works with ${f.contactGenres}, I hope you will find it worth a listen.`,
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

/**
 * Courtesy only: wishes, thanks and offers that state nothing about the track or the artist (what the
 * artist did not give, the writer does not claim). The type's own ones first.
 */
function courtesySentences(f: Facts, pick: Pick): Sentence[] {
  const byType: Record<ContactType, Sentence[]> = {
    Label: [
      {
        slot: 'track',
        text: f.label
          ? `I think it would sit well alongside the releases in the ${f.label} catalogue.`
          : 'I think it would sit well alongside the releases in your catalogue.',
      },
      { slot: 'ask', text: "If it isn't right for you, I'd still be grateful for a quick word." },
      { slot: 'ask', text: 'If you need anything else from me to judge it, just let me know.' },
    ],
    DJ: [
      { slot: 'ask', text: "I'd love to hear how it goes down on a dancefloor." },
      { slot: 'closing', text: 'If it makes it into a set, I would love to know how it went.' },
      { slot: 'ask', text: 'If you need anything else from me to play it, just let me know.' },
    ],
    Fan: [
      { slot: 'ask', text: 'Feel free to tell me honestly what you think.' },
      { slot: 'closing', text: "I'd love to know what you think once you've had a listen." },
      { slot: 'track', text: 'I hope it brightens your day a little.' },
    ],
  };
  const courtesy: Sentence[] = [
    {
      slot: 'ask',
      text: pick([
        "I'd really value your honest feedback, even if it's not the right fit.",
        'Any feedback you have would mean a lot, even if it is not for you.',
      ]),
    },
    { slot: 'ask', text: "There's no rush at all: listen whenever you have a moment." },
    { slot: 'ask', text: 'If you have any questions about the track, just reply to this email.' },
    { slot: 'closing', text: 'I know your inbox is busy, so thank you for reading this far.' },
    { slot: 'track', text: 'I hope you enjoy it.' },
    { slot: 'track', text: 'Your opinion on it would mean a great deal to me.' },
    { slot: 'closing', text: "I'd love to stay in touch, whatever you think of this one." },
    { slot: 'closing', text: 'If you know someone else who might like it, feel free to pass it along.' },
    { slot: 'closing', text: "Please let me know if this isn't the right address for music like this." },
  ];
  return [...byType[f.type], ...courtesy];
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
  const asks = f.subjectAsks;
  // A contact's guideline asks for what the subject must carry: only facts the artist gave can be put there.
  const asked = [asks.genre ? f.genreTitle : null, asks.bpm && f.bpmGiven !== null ? `${f.bpmGiven} BPM` : null].filter((part) => part !== null);
  if (asked.length > 0 || (asks.artist && f.artist)) {
    const prefix: Record<ContactType, string> = { Label: 'Demo submission', DJ: 'New track for your sets', Fan: 'Early listen' };
    const by = asks.artist && f.artist ? ` by ${f.artist}` : '';
    return normaliseSubject(`${prefix[f.type]}: ${quoted}${by}${asked.length > 0 ? ` (${asked.join(', ')})` : ''}`);
  }
  const options: Record<ContactType, string[]> = {
    Label: [`Demo submission: ${quoted} (${f.genreTitle})`, `New ${f.genreTitle} demo for ${f.label ?? 'your label'}: ${quoted}`],
    DJ: [`New ${f.genreTitle} track for your sets: ${quoted}`, `${quoted}: fresh ${f.genreTitle} for your sets`],
    Fan: [`Early listen: ${quoted}`, `A new track for you: ${quoted}`],
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
function chooseSentences(core: Sentence[], optional: Sentence[], fixedWords: number, target: number): Sentence[] {
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

/**
 * A follow-up step (issue 27 §1): a short, polite nudge about the first email, never a copy of it; it
 * names the track and gives its link again, and states no fact the first email did not.
 */
function followUpBody(f: Facts, pick: Pick, greeting: string, signOff: string, step: number): string {
  const quoted = `"${f.track}"`;
  const opener: Record<Tone, string[]> = {
    professional: [`I wanted to follow up on my earlier email about ${quoted}.`, `A short follow-up on ${quoted}, which I sent you recently.`],
    friendly: [`Just following up on ${quoted}, which I sent over recently.`, `Checking back in about ${quoted} in case it got buried.`],
    casual: [`Quick nudge about ${quoted} in case it slipped past.`, `Just bumping ${quoted} back up your inbox.`],
  };
  const link: Record<Tone, string> = {
    professional: `Here is the link again: ${f.url}`,
    friendly: `Here's the link again: ${f.url}`,
    casual: `Link again: ${f.url}`,
  };
  const close: Record<Tone, string> = {
    professional: step > 1 ? 'This is my last note about it. Thank you for your time.' : 'Thank you for your time, and no pressure at all.',
    friendly: step > 1 ? "I won't bother you about it again. Thanks for your time!" : 'No pressure at all, thanks for your time!',
    casual: step > 1 ? 'Last nudge, promise. Thanks!' : 'No stress, thanks!',
  };
  return [greeting, `${pick(opener[f.tone])} ${link[f.tone]}`, `${close[f.tone]}\n\n${signOff}`].join('\n\n');
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
    const seed = hash(
      [oneLine(request.contact.name), f.label ?? '', f.type, f.contactGenres ?? '', f.position ?? '', f.hasNotes ? 'notes' : '', f.track].join('\u0000'),
    );
    const random = seededRandom(seed);
    const pick: Pick = (options) => {
      const option = options[Math.floor(random() * options.length)];
      if (option === undefined) throw new Error('pick needs at least one option');
      return option;
    };

    const greeting = greetings[f.tone](f.addressee);
    const signOff = signatureOf(f);
    if (request.followUp) return { subject: subjectOf(f, pick), body: followUpBody(f, pick, greeting, signOff, request.followUp.step) };
    const fixedWords = countWords(greeting) + countWords(signOff);
    // The recipient's preferred maximum (issue 28 §2) when it is shorter than the requested length.
    const length = writerLength(request);
    const max = length * (1 + LENGTH_TOLERANCE);
    let core = coreSentences(f, pick, false);
    if (fixedWords + core.reduce((n, s) => n + countWords(s.text), 0) > max) core = coreSentences(f, pick, true);

    const optional = [...personalSentences(f, pick), ...shuffled(courtesySentences(f, pick), random)];
    const sentences = chooseSentences(core, optional, fixedWords, length);
    return { subject: subjectOf(f, pick), body: bodyOf(greeting, sentences, signOff) };
  }
}
