/** Option lists of spec §3, shared by the web forms, the seed data and the server checks. */
export const genres = [
  'house',
  'techno',
  'progressive',
  'trance',
  'dubstep',
  'drum-bass',
  'deep-house',
  'tech-house',
  'minimal',
  'ambient',
  'breaks',
  'bass',
  'other',
] as const;
export type Genre = (typeof genres)[number];

/** Whether a value is one of the genre slugs (and not, say, 'constructor'). */
export const isGenre = (value: string): value is Genre => (genres as readonly string[]).includes(value);

/** How each genre of the option list reads to people (the web's badges and filters, a directory contact's genre). */
export const genreLabels: Record<Genre, string> = {
  house: 'House',
  techno: 'Techno',
  progressive: 'Progressive',
  trance: 'Trance',
  dubstep: 'Dubstep',
  'drum-bass': 'Drum & Bass',
  'deep-house': 'Deep House',
  'tech-house': 'Tech House',
  minimal: 'Minimal',
  ambient: 'Ambient',
  breaks: 'Breaks',
  bass: 'Bass',
  other: 'Other',
};

export const contactTypes = ['Label', 'DJ', 'Fan'] as const;
export type ContactType = (typeof contactTypes)[number];

export const tones = ['professional', 'friendly', 'casual'] as const;
export type Tone = (typeof tones)[number];
