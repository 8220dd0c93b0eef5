import type { DirectoryEntry, DirectoryContactType, LabelSize } from '../../../schema/api/directory';
import type { DemoPolicy } from '../../../schema/api/demoPolicyValues';
import type { Genre } from '../../../schema/api/options';
import { seededRandom } from '../../../lambdas/core/seededRandom';

/**
 * The LabelFinder directory seed: fictional labels and DJs, generated once at module load by a fixed-seed
 * generator, so every run (and every machine) gets exactly the same entries and ids `lf-001`….
 * Emails and websites use only reserved domains (RFC 2606 / RFC 6761: example.com/.org/.net, *.example,
 * *.test), so nothing here can reach a real inbox.
 */

export const DIRECTORY_SEED_SIZE = 132;
const SEED = 0x7a3c91;

const random = seededRandom(SEED);

function pick<T>(list: readonly T[]): T {
  const value = list[Math.floor(random() * list.length)];
  if (value === undefined) throw new Error('pick from an empty list');
  return value;
}

function shuffled<T>(list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Lower-case ASCII words joined by `separator` ('São Paulo' → 'sao-paulo' with '-'). */
function slug(value: string, separator = ''): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
    .join(separator);
}

// ---------------------------------------------------------------------------------------------------
// Word lists

const labelWordsA = [
  'Velvet',
  'Copper',
  'Hollow',
  'Paper',
  'Static',
  'Amber',
  'Cobalt',
  'Dusk',
  'Feral',
  'Glass',
  'Lunar',
  'Tidal',
  'Ochre',
  'Rust',
  'Salt',
  'Slate',
  'Sodium',
  'Tangent',
  'Umber',
  'Vapour',
  'Willow',
  'Zinc',
  'Cedar',
  'Ivory',
  'Magnetic',
  'Quiet',
  'Radial',
  'Sable',
  'Basalt',
  'Marrow',
] as const;
const labelWordsB = [
  'Moth',
  'Tide',
  'Signal',
  'Lantern',
  'Circuit',
  'Harbour',
  'Orchard',
  'Prism',
  'Furnace',
  'Meridian',
  'Atlas',
  'Pylon',
  'Quarry',
  'Relay',
  'Spiral',
  'Tundra',
  'Vessel',
  'Cascade',
  'Fathom',
  'Gantry',
  'Helix',
  'Isotope',
  'Kiln',
  'Monolith',
  'Nimbus',
  'Outpost',
  'Parallax',
  'Reservoir',
  'Heron',
  'Loom',
] as const;
const labelSuffixes = [
  'Records',
  'Records',
  'Recordings',
  'Recordings',
  'Audio',
  'Music',
  'Tapes',
  'Editions',
  'Sound',
  'Discs',
  'Imprint',
  'Collective',
] as const;

const djFirstNames = [
  'Kessa',
  'Marlo',
  'Orin',
  'Tove',
  'Idris',
  'Sunniva',
  'Bram',
  'Calla',
  'Dov',
  'Elske',
  'Greer',
  'Halvard',
  'Ines',
  'Juno',
  'Kasimir',
  'Liora',
  'Mats',
  'Noor',
  'Oskar',
  'Pria',
  'Quill',
  'Rasmus',
  'Selene',
  'Teodor',
  'Ulla',
  'Vesna',
  'Wren',
  'Yusuf',
  'Zaria',
  'Aurelio',
] as const;
const djLastNames = [
  'Lune',
  'Venn',
  'Halloway',
  'Strand',
  'Quell',
  'Ashgrove',
  'Brightwater',
  'Carrick',
  'Dunmore',
  'Everell',
  'Fairhall',
  'Grisewood',
  'Hartwell',
  'Ibsworth',
  'Kettering',
  'Lindqvist',
  'Morrow',
  'Northcote',
  'Okonkwo-Hale',
  'Penrith',
  'Rosendahl',
  'Sauvage',
  'Thornby',
  'Varga',
  'Wexley',
] as const;
const djAliasWords = [
  'Nightjar',
  'Kilnworth',
  'Soft Gravity',
  'Tessellate',
  'Lowlight',
  'Halfmoon Static',
  'Mirrorglass',
  'Deepfield',
  'Oxbow',
  'Glimmerdeck',
  'Ferrous',
  'Saltmarsh',
  'Cinderwave',
  'Driftglass',
  'Mossgrid',
  'Quartzline',
  'Emberlane',
  'Fernhollow',
] as const;

/** Real cities; the labels and DJs placed there are not. */
const cities = [
  'Berlin, Germany',
  'London, UK',
  'Amsterdam, Netherlands',
  'Detroit, USA',
  'Chicago, USA',
  'Ibiza, Spain',
  'Barcelona, Spain',
  'Manchester, UK',
  'Bristol, UK',
  'Glasgow, UK',
  'Paris, France',
  'Montreal, Canada',
  'Toronto, Canada',
  'New York, USA',
  'Los Angeles, USA',
  'Melbourne, Australia',
  'Sydney, Australia',
  'Tokyo, Japan',
  'São Paulo, Brazil',
  'Mexico City, Mexico',
  'Cape Town, South Africa',
  'Johannesburg, South Africa',
  'Tbilisi, Georgia',
  'Lisbon, Portugal',
  'Copenhagen, Denmark',
  'Stockholm, Sweden',
  'Oslo, Norway',
  'Leeds, UK',
  'Dublin, Ireland',
  'Brussels, Belgium',
  'Cologne, Germany',
  'Hamburg, Germany',
  'Vienna, Austria',
  'Zurich, Switzerland',
  'Milan, Italy',
  'Bogotá, Colombia',
  'Buenos Aires, Argentina',
  'Seoul, South Korea',
  'Auckland, New Zealand',
  'Kraków, Poland',
  'Prague, Czechia',
  'Rotterdam, Netherlands',
  'Miami, USA',
  'Denver, USA',
] as const;

/** Related genres: an entry takes one to three from one cluster, so combinations stay plausible. */
const genreClusters: readonly (readonly Genre[])[] = [
  ['techno', 'minimal', 'ambient'],
  ['techno', 'tech-house', 'minimal'],
  ['house', 'deep-house', 'tech-house'],
  ['house', 'deep-house', 'progressive'],
  ['progressive', 'trance', 'deep-house'],
  ['trance', 'progressive', 'techno'],
  ['dubstep', 'bass', 'drum-bass'],
  ['drum-bass', 'breaks', 'bass'],
  ['breaks', 'bass', 'techno'],
  ['ambient', 'other', 'minimal'],
  ['tech-house', 'house', 'bass'],
  ['other', 'breaks', 'ambient'],
];

const genrePhrases: Record<Genre, string> = {
  house: 'soulful house with live instrumentation',
  techno: 'hypnotic peak-time techno',
  progressive: 'slow-building progressive house',
  trance: 'melodic trance',
  dubstep: 'heavyweight dubstep',
  'drum-bass': 'rolling drum & bass',
  'deep-house': 'late-night deep house',
  'tech-house': 'percussive tech-house',
  minimal: 'stripped-back minimal',
  ambient: 'beatless ambient electronics',
  breaks: 'electro-leaning breakbeat',
  bass: 'garage-tinged UK bass',
  other: 'leftfield electronica',
};

const labelSizeWeights: readonly LabelSize[] = [
  'Independent',
  'Independent',
  'Independent',
  'Independent',
  'Boutique',
  'Boutique',
  'Boutique',
  'Mid-size',
  'Mid-size',
  'Major subsidiary',
];

const labelOpeners: Record<LabelSize, readonly string[]> = {
  Independent: ['Independent label', 'Artist-run independent label', 'Small independent label'],
  Boutique: ['Boutique imprint', 'Vinyl-focused boutique label', 'Curated boutique imprint'],
  'Mid-size': ['Established mid-size label', 'Mid-size label with a global roster', 'Well-distributed mid-size label'],
  'Major subsidiary': ['Dance imprint within a major-label group', 'Major-backed electronic imprint'],
};

const labelDetails = [
  'Releases two to three EPs a month across digital and limited vinyl.',
  'Known for breaking new producers: about half of each year’s releases are debuts.',
  'Runs a quarterly various-artists compilation that is open to unsigned artists.',
  'Every release gets a DJ promo push and radio servicing.',
  'Vinyl first: ten to twelve 12-inch records a year, with digital following a month later.',
  'Hosts a monthly label night where signed artists play.',
  'Prefers original EPs of two to four tracks over single tracks.',
  'Remixes are commissioned in-house, so send original material only.',
  'Small roster, long-term development: most artists release several records with the label.',
  'Strong sync and playlist relationships alongside club promotion.',
  'Releases are mastered in-house and come with a remix from a roster artist.',
  'Focus on cassette and digital, with a limited run of each release.',
] as const;

const djOpeners = [
  'Touring DJ and producer playing',
  'Club resident known for long sets of',
  'Radio host and selector championing',
  'Festival DJ with a sound rooted in',
  'Mix-series curator digging for',
  'Warm-up specialist playing',
] as const;

const djDetails = [
  'Hosts a monthly two-hour show on community radio and premieres unreleased promos.',
  'Resident at a 600-capacity warehouse venue; plays four- to five-hour sets and values long, mixable intros.',
  'Compiles a weekly mixtape series that always features at least one unsigned producer.',
  'Plays mostly vinyl but accepts WAV promos for club sets.',
  'Tours widely in spring and summer; the best time to send promos is January to March.',
  'Runs a small edits imprint alongside DJing and is always looking for new names.',
  'Known for supporting tracks early and posting track IDs from every set.',
  'Hosts a streamed back-to-back series with guests from the local scene.',
] as const;

const labelGuidelines = [
  'Send a private SoundCloud or Dropbox link with downloads enabled. No attachments and no public links. We reply within four weeks if interested.',
  'Original, unreleased EPs of two to four tracks only. Include a short bio and any previous releases. Mastered or pre-master are both fine.',
  'One email per release with a streaming link; we will ask for WAV files if we want them. Please wait three weeks before following up.',
  'We only sign music that is not being pitched to other labels at the same time. Tell us if the submission is exclusive.',
  'Put the genre and BPM in the subject line. Private stream links only; we do not open downloads from unknown senders.',
  'Demos are reviewed on the first Monday of each month. Keep the message short: the link, who you are, and what you want from a release.',
  'Include your socials and any DJ support so far. All samples must be cleared.',
  'Singles and EPs welcome; we are not taking albums at the moment.',
  'Address your email to the A&R team, not to individual artists. Unsolicited remixes of our catalogue are not accepted.',
  'Send up to three tracks in a single private playlist. We listen to everything but only reply to artists we want to work with.',
] as const;

const djGuidelines = [
  'Promos welcome: WAV or 320 kbps MP3 via a download link. Include the release date and the label if signed.',
  'Send a private link with the BPM and key in the email. No mass-mailer promos, please.',
  'Extended or club mixes preferred over radio edits. Feedback is not guaranteed, but every promo gets a listen.',
  'For radio premieres, send at least three weeks before release with artwork and a short bio.',
  'Only send tracks you are happy to have played out; unreleased demos are welcome.',
  'One track per email, with a direct download. Links that need a sign-up will not be opened.',
] as const;

/** What each guideline above says in structured form (same order): the base of the entry's demo policy. */
type PolicyBase = Partial<
  Pick<DemoPolicy, 'private_streaming_only' | 'download_wanted' | 'attachments_refused' | 'unreleased_only' | 'response_days' | 'max_email_words'>
>;

const labelGuidelinePolicies: readonly PolicyBase[] = [
  { private_streaming_only: true, download_wanted: true, attachments_refused: true, response_days: 28 },
  { unreleased_only: true },
  { response_days: 21 },
  {},
  { private_streaming_only: true },
  { max_email_words: 120, response_days: 30 },
  {},
  {},
  {},
  { private_streaming_only: true },
];

const djGuidelinePolicies: readonly PolicyBase[] = [{ download_wanted: true }, { private_streaming_only: true }, {}, {}, {}, { download_wanted: true }];

/** Labels that take no demo by email: their guidelines say where instead. */
const webFormGuidelines =
  'We only take demos through the submission form on our website; emailed demos are not answered. Private streaming links only, please.';
const platformGuidelines = 'Demos are accepted only through our page on a submission platform. We do not listen to demos sent by email.';

const labelMailboxes = ['demos', 'submissions', 'ar', 'promo', 'listen', 'hello', 'music'] as const;
const reservedTlds = ['example', 'test'] as const;
const reservedDomains = ['example.com', 'example.org', 'example.net'] as const;

// ---------------------------------------------------------------------------------------------------
// Generation

function genresFor(): Genre[] {
  const cluster = pick(genreClusters);
  const roll = random();
  const count = roll < 0.35 ? 1 : roll < 0.8 ? 2 : 3;
  return shuffled(cluster).slice(0, count);
}

function sentenceList(phrases: string[]): string {
  if (phrases.length <= 1) return phrases[0] ?? '';
  return `${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1]}`;
}

function cityName(location: string): string | null {
  return location.includes(',') ? (location.split(',')[0] ?? null) : null;
}

const usedNames = new Set<string>();
const usedEmails = new Set<string>();

/** The distinctive part of a name ('Velvet Moth Records' → 'velvetmoth', 'DJ Oxbow' → 'oxbow'): kept unique so hosts never clash. */
function compactName(name: string): string {
  return slug(name.replace(/^DJ /, '').replace(/ (Records|Recordings|Audio|Music|Tapes|Editions|Sound|Discs|Imprint|Collective)$/, ''));
}

function uniqueName(make: () => string): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const name = make();
    const compact = compactName(name);
    if (!usedNames.has(compact)) {
      usedNames.add(compact);
      return name;
    }
  }
  throw new Error('seed: ran out of unique names');
}

function uniqueEmail(email: string): string {
  let candidate = email;
  for (let n = 2; usedEmails.has(candidate.toLowerCase()); n++) {
    const [local, domain] = email.split('@');
    candidate = `${local}${n}@${domain}`;
  }
  usedEmails.add(candidate.toLowerCase());
  return candidate;
}

function labelName(): string {
  return uniqueName(() => `${pick(labelWordsA)} ${pick(labelWordsB)} ${pick(labelSuffixes)}`);
}

function djName(): string {
  return uniqueName(() => {
    const roll = random();
    if (roll < 0.55) return `${pick(djFirstNames)} ${pick(djLastNames)}`;
    if (roll < 0.8) return `DJ ${pick(djAliasWords)}`;
    return pick(djAliasWords);
  });
}

function contactFor(name: string, type: DirectoryContactType): { email: string; website_url: string | null } {
  const compact = compactName(name);
  const dashed = slug(name, '-');
  const style = random();
  let email: string;
  let website: string | null;
  if (type === 'Label') {
    if (style < 0.6) {
      const host = `${compact}.${pick(reservedTlds)}`;
      email = `${pick(labelMailboxes)}@${host}`;
      website = `https://${random() < 0.5 ? 'www.' : ''}${host}`;
    } else {
      const domain = pick(reservedDomains);
      email = `${compact}.${pick(labelMailboxes)}@${domain}`;
      website = `https://${domain}/labels/${dashed}`;
    }
  } else if (style < 0.5) {
    const domain = pick(reservedDomains);
    email = `${slug(name.replace(/^DJ /, ''), '.')}@${domain}`;
    website = `https://${domain}/artists/${dashed}`;
  } else {
    const host = `${compact}.${pick(reservedTlds)}`;
    email = `${random() < 0.5 ? 'promos' : 'bookings'}@${host}`;
    website = `https://${host}`;
  }
  if (random() < 0.06) website = null;
  return { email: uniqueEmail(email), website_url: website };
}

function labelDescription(size: LabelSize, entryGenres: Genre[], location: string): string {
  const city = cityName(location);
  const opener = `${pick(labelOpeners[size])}${city ? ` based in ${city}` : ''}`;
  return `${opener}, releasing ${sentenceList(entryGenres.map((g) => genrePhrases[g]))}. ${pick(labelDetails)}`;
}

function djDescription(entryGenres: Genre[], location: string): string {
  const city = cityName(location);
  const lead = `${pick(djOpeners)} ${sentenceList(entryGenres.map((g) => genrePhrases[g]))}`;
  return `${lead}${city ? `, based in ${city}` : ''}. ${pick(djDetails)}`;
}

/**
 * Demo policies come from a generator of their own, so adding them drew nothing from the one above and
 * every entry's name, email and text stayed as it was.
 */
const policyRandom = seededRandom(SEED ^ 0x5eed);
const policyPick = <T>(list: readonly T[]): T => {
  const value = list[Math.floor(policyRandom() * list.length)];
  if (value === undefined) throw new Error('pick from an empty list');
  return value;
};

/**
 * An entry's demo policy and the guidelines that go with it: about one in ten has none (not known), about
 * one label in ten takes demos only through a web form and one in ten only through a platform; the
 * others take email, with the rules their guidelines state, often the genres they release and a typical
 * response time.
 */
function policyFor(
  type: DirectoryContactType,
  name: string,
  guidelines: string,
  entryGenres: Genre[],
  website: string | null,
): { demo_policy: DemoPolicy | null; submission_guidelines: string } {
  const roll = policyRandom();
  if (roll < 0.1) return { demo_policy: null, submission_guidelines: guidelines };
  const base =
    (type === 'Label'
      ? labelGuidelinePolicies[labelGuidelines.indexOf(guidelines as (typeof labelGuidelines)[number])]
      : djGuidelinePolicies[djGuidelines.indexOf(guidelines as (typeof djGuidelines)[number])]) ?? {};
  const common = {
    genres: policyRandom() < 0.6 ? [...entryGenres] : [],
    response_days: base.response_days ?? policyPick([7, 10, 14, 14, 21, 30, 45, null, null]),
    max_email_words: base.max_email_words ?? (policyRandom() < 0.2 ? policyPick([100, 150, 200]) : null),
  };
  const dashed = slug(name, '-');
  if (type === 'Label' && roll < 0.2) {
    return {
      demo_policy: {
        submit_by: 'web_form',
        submit_url: `${website ?? `https://labels.example/${dashed}`}/demos`,
        private_streaming_only: true,
        download_wanted: false,
        attachments_refused: true,
        unreleased_only: false,
        ...common,
      },
      submission_guidelines: webFormGuidelines,
    };
  }
  if (type === 'Label' && roll < 0.3) {
    return {
      demo_policy: {
        submit_by: 'platform_only',
        submit_url: `https://submit.example/${dashed}`,
        private_streaming_only: false,
        download_wanted: false,
        attachments_refused: false,
        unreleased_only: policyRandom() < 0.5,
        ...common,
      },
      submission_guidelines: platformGuidelines,
    };
  }
  return {
    demo_policy: {
      submit_by: 'email',
      submit_url: null,
      private_streaming_only: base.private_streaming_only ?? false,
      download_wanted: base.download_wanted ?? false,
      attachments_refused: base.attachments_refused ?? false,
      unreleased_only: base.unreleased_only ?? false,
      ...common,
    },
    submission_guidelines: guidelines,
  };
}

function generate(): DirectoryEntry[] {
  const count = DIRECTORY_SEED_SIZE;
  const indices = Array.from({ length: count }, (_, i) => i);
  const order = shuffled(indices);
  // About 15% featured; a handful without a usable location so the location filter has work to do.
  const featured = new Set(order.slice(0, Math.round(count * 0.15)));
  const missingLocation = new Map<number, string>([
    [order[30] ?? 0, ''],
    [order[31] ?? 0, ''],
    [order[32] ?? 0, 'Unknown'],
    [order[33] ?? 0, 'unknown'],
    [order[34] ?? 0, 'Unknown Location'],
  ]);

  const entries: DirectoryEntry[] = [];
  for (const i of indices) {
    const type: DirectoryContactType = random() < 0.34 ? 'DJ' : 'Label';
    const name = type === 'Label' ? labelName() : djName();
    const entryGenres = genresFor();
    const location = missingLocation.get(i) ?? pick(cities);
    const size: LabelSize = type === 'Label' ? pick(labelSizeWeights) : 'Independent';
    const { email, website_url } = contactFor(name, type);
    entries.push({
      id: `lf-${String(i + 1).padStart(3, '0')}`,
      name,
      email,
      genres: entryGenres,
      location,
      label_size: size,
      description: type === 'Label' ? labelDescription(size, entryGenres, location) : djDescription(entryGenres, location),
      website_url,
      is_featured: featured.has(i),
      contact_type: type,
      ...policyFor(type, name, pick(type === 'Label' ? labelGuidelines : djGuidelines), entryGenres, website_url),
    });
  }
  return entries;
}

/** The seeded directory, in id order. */
export const directoryEntries: readonly DirectoryEntry[] = Object.freeze(generate());
